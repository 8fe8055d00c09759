package telemetry

import (
	"context"
	"log/slog"
	"net/http"
	"strings"

	"github.com/bananaqr/bananaqr/internal/buildinfo"
	"github.com/go-logr/logr"
	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	semconv "go.opentelemetry.io/otel/semconv/v1.43.0"
	"go.opentelemetry.io/otel/trace"
)

// Tracing exports a server's spans with the OpenTelemetry SDK over OTLP/HTTP. A nil *Tracing is
// tracing off: its methods do nothing, and the requests' path through Handler is the same as
// without it (no allocation more).
type Tracing struct {
	provider *sdktrace.TracerProvider
	tracer   trace.Tracer
}

// OTLPFromEnv reports whether the standard OpenTelemetry environment asks for trace export:
// OTEL_EXPORTER_OTLP_TRACES_ENDPOINT or OTEL_EXPORTER_OTLP_ENDPOINT set, and OTEL_SDK_DISABLED
// not "true" (OpenTelemetry's "Environment Variable Specification").
func OTLPFromEnv(getenv func(string) string) bool {
	if strings.EqualFold(getenv("OTEL_SDK_DISABLED"), "true") {
		return false
	}
	return getenv("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT") != "" || getenv("OTEL_EXPORTER_OTLP_ENDPOINT") != ""
}

// NewTracing starts exporting the spans of service (its service.name) in batches over
// OTLP/HTTP (protobuf) to endpoint, a base URL such as http://collector:4318 to which
// /v1/traces is added (as for OTEL_EXPORTER_OTLP_ENDPOINT); an empty endpoint leaves every
// setting to the standard OTEL_* environment variables (endpoint, headers, timeout, sampler).
// The sampler is the SDK's default: a caller's sampled flag is followed, else every trace is
// sampled. Shutdown flushes the spans not yet sent.
func NewTracing(ctx context.Context, endpoint, service string) (*Tracing, error) {
	var opts []otlptracehttp.Option
	if endpoint != "" {
		opts = append(opts, otlptracehttp.WithEndpointURL(strings.TrimSuffix(endpoint, "/")+"/v1/traces"))
	}
	exporter, err := otlptracehttp.New(ctx, opts...)
	if err != nil {
		return nil, err
	}
	// The service's name and version, which OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES
	// override (the later detector wins).
	res, err := resource.New(ctx, resource.WithTelemetrySDK(),
		resource.WithAttributes(semconv.ServiceName(service), semconv.ServiceVersion(buildinfo.Version())),
		resource.WithFromEnv())
	if err != nil {
		return nil, err
	}
	provider := sdktrace.NewTracerProvider(sdktrace.WithBatcher(exporter), sdktrace.WithResource(res))
	return &Tracing{provider: provider, tracer: provider.Tracer("github.com/bananaqr/bananaqr")}, nil
}

// Shutdown sends the spans not yet sent and stops the export; nil-safe.
func (t *Tracing) Shutdown(ctx context.Context) error {
	if t == nil {
		return nil
	}
	return t.provider.Shutdown(ctx)
}

// Start starts a span named name inside the span of ctx, and returns the context that holds it
// and the function that ends it; with tracing off it returns ctx and a function that does
// nothing, allocating nothing.
func (t *Tracing) Start(ctx context.Context, name string) (context.Context, func()) {
	if t == nil {
		return ctx, endNothing
	}
	ctx, span := t.tracer.Start(ctx, name)
	return ctx, func() { span.End() }
}

// endNothing ends the span that tracing off did not start.
func endNothing() {}

// traceContext reads a request's W3C trace context headers (traceparent, tracestate).
var traceContext propagation.TraceContext

// startRequest starts the server span of r, the child of the caller's span when r carries a
// valid traceparent, named as OpenTelemetry's HTTP conventions name it ("GET /route"), and
// returns r with the span in its context.
func (t *Tracing) startRequest(r *http.Request, route string) (*http.Request, trace.Span) {
	ctx := traceContext.Extract(r.Context(), propagation.HeaderCarrier(r.Header))
	ctx, span := t.tracer.Start(ctx, r.Method+" "+route, trace.WithSpanKind(trace.SpanKindServer),
		trace.WithAttributes(semconv.HTTPRequestMethodKey.String(methodLabel(r.Method)), semconv.HTTPRoute(route)))
	return r.WithContext(ctx), span
}

// endRequest ends the server span of a request answered with status (an error for a 5xx, as
// the HTTP conventions say of a server), and returns its trace id for the log.
func endRequest(span trace.Span, status int, requestID string) string {
	span.SetAttributes(semconv.HTTPResponseStatusCode(status), attribute.String("bananaqr.request_id", requestID))
	if status >= 500 {
		span.SetStatus(codes.Error, "")
	}
	span.End()
	return span.SpanContext().TraceID().String()
}

// LogOpenTelemetryTo sends the OpenTelemetry SDK's own messages (an export that failed, at
// WARN; its diagnostics, at DEBUG) to logger, in the service's log format, instead of the
// standard library's log package.
func LogOpenTelemetryTo(logger *slog.Logger) {
	l := logger.With("component", "opentelemetry")
	otel.SetErrorHandler(otel.ErrorHandlerFunc(func(err error) { l.Warn("opentelemetry", "error", err.Error()) }))
	otel.SetLogger(logr.FromSlogHandler(l.Handler()))
}
