{{/* The chart's name, at most 63 characters (a DNS label). */}}
{{- define "expenses.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{/* The full name of the release's objects: the release name, with the chart's name unless it holds it. */}}
{{- define "expenses.fullname" -}}
{{- if .Values.fullnameOverride -}}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- $name := default .Chart.Name .Values.nameOverride -}}
{{- if contains $name .Release.Name -}}
{{- .Release.Name | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{/* Labels every object carries (the Kubernetes recommended labels), but the component. */}}
{{- define "expenses.baseLabels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
app.kubernetes.io/name: {{ include "expenses.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ .Values.image.tag | default .Chart.AppVersion | trunc 63 | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
{{- end -}}

{{/* The labels of the service's objects. */}}
{{- define "expenses.labels" -}}
{{ include "expenses.baseLabels" . }}
app.kubernetes.io/component: server
{{- end -}}

{{/* The labels that select the service's pods (never change on an upgrade). */}}
{{- define "expenses.selectorLabels" -}}
app.kubernetes.io/name: {{ include "expenses.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/component: server
{{- end -}}

{{/* The image reference: repository:tag, the tag defaulting to the chart's appVersion. */}}
{{- define "expenses.image" -}}
{{- printf "%s:%s" .Values.image.repository (.Values.image.tag | default .Chart.AppVersion) -}}
{{- end -}}

{{/*
GOMEMLIMIT: goMemLimit when set; else goMemLimitPercent of resources.limits.memory, in MiB
(Go's runtime reads the suffix MiB). A memory limit in Mi or Gi is understood; another unit
needs goMemLimit set.
*/}}
{{- define "expenses.goMemLimit" -}}
{{- if .Values.goMemLimit -}}
{{- .Values.goMemLimit -}}
{{- else -}}
{{- $limit := toString (dig "limits" "memory" "" .Values.resources) -}}
{{- $mib := 0 -}}
{{- if hasSuffix "Mi" $limit -}}
{{- $mib = trimSuffix "Mi" $limit | atoi -}}
{{- else if hasSuffix "Gi" $limit -}}
{{- $mib = mul (trimSuffix "Gi" $limit | atoi) 1024 -}}
{{- end -}}
{{- if le $mib 0 -}}
{{- fail (printf "GOMEMLIMIT: set goMemLimit, or resources.limits.memory in Mi or Gi (it is %q)" $limit) -}}
{{- end -}}
{{- printf "%dMiB" (div (mul $mib .Values.goMemLimitPercent) 100) -}}
{{- end -}}
{{- end -}}

{{/* The pod's security context: a non-root user (the image's 65532), seccomp's default profile. */}}
{{- define "expenses.podSecurityContext" -}}
runAsNonRoot: true
runAsUser: {{ .Values.securityContext.runAsUser }}
runAsGroup: {{ .Values.securityContext.runAsGroup }}
fsGroup: {{ .Values.securityContext.runAsGroup }}
seccompProfile:
  type: RuntimeDefault
{{- end -}}

{{/* A container's security context: no privilege, no capability, a read-only root filesystem. */}}
{{- define "expenses.containerSecurityContext" -}}
runAsNonRoot: true
runAsUser: {{ .Values.securityContext.runAsUser }}
runAsGroup: {{ .Values.securityContext.runAsGroup }}
allowPrivilegeEscalation: false
readOnlyRootFilesystem: true
privileged: false
capabilities:
  drop: ["ALL"]
seccompProfile:
  type: RuntimeDefault
{{- end -}}

