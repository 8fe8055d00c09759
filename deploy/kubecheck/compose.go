package main

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/compose-spec/compose-go/v2/loader"
	"github.com/compose-spec/compose-go/v2/types"
)

// checkComposeFile loads a compose file with the Compose Specification's reference loader
// (compose-go: its JSON Schema validation, interpolation, the x- extension and merge key
// resolved, the consistency checks) and checks each service that runs bananaqr serve (its image
// is bananaqr's) against the binary: every BANANAQR_* variable is one `serve -h` names, and
// stop_grace_period is above BANANAQR_SHUTDOWN_DELAY plus BANANAQR_SHUTDOWN_TIMEOUT.
func checkComposeFile(ctx context.Context, bin, file string) ([]string, error) {
	h, err := readHelp(ctx, bin, "serve")
	if err != nil {
		return nil, err
	}
	abs, err := filepath.Abs(file)
	if err != nil {
		return nil, err
	}
	details := types.ConfigDetails{
		WorkingDir:  filepath.Dir(abs),
		ConfigFiles: []types.ConfigFile{{Filename: abs}},
		Environment: types.Mapping{},
	}
	project, err := loader.LoadWithContext(ctx, details, func(o *loader.Options) {
		o.SetProjectName("bananaqr", true)
	})
	if err != nil {
		return []string{fmt.Sprintf("%s: %v", file, err)}, nil
	}
	return checkComposeProject(h, project), nil
}

// checkComposeProject checks the project's services that run bananaqr's image.
func checkComposeProject(h *serverHelp, project *types.Project) []string {
	var problems []string
	replicas := 0
	for name, svc := range project.Services {
		if !strings.HasPrefix(svc.Image, "bananaqr:") {
			continue
		}
		replicas++
		for key := range svc.Environment {
			if strings.HasPrefix(key, "BANANAQR_") && !h.Env[key] {
				problems = append(problems, fmt.Sprintf("service %s: environment %s is no flag's twin in `bananaqr serve -h`", name, key))
			}
		}
		stopping, err := composeStopping(h, svc)
		if err != nil {
			problems = append(problems, fmt.Sprintf("service %s: %v", name, err))
		}
		grace := 10 * time.Second // Compose's default
		if svc.StopGracePeriod != nil {
			grace = time.Duration(*svc.StopGracePeriod)
		}
		if grace <= stopping {
			problems = append(problems, fmt.Sprintf("service %s: stop_grace_period %v is not above BANANAQR_SHUTDOWN_DELAY + BANANAQR_SHUTDOWN_TIMEOUT, %v", name, grace, stopping))
		}
	}
	if replicas == 0 {
		problems = append(problems, "no service runs the image bananaqr:…")
	}
	return problems
}

// composeStopping is how long a service's serve may take to stop after SIGTERM: its shutdown
// delay and timeout, each from its variable or -h's default.
func composeStopping(h *serverHelp, svc types.ServiceConfig) (time.Duration, error) {
	var total time.Duration
	for _, flag := range []string{"shutdown-delay", "shutdown-timeout"} {
		d, err := h.durationDefault(flag)
		if err != nil {
			return 0, err
		}
		env := "BANANAQR_" + strings.ToUpper(strings.ReplaceAll(flag, "-", "_"))
		if v := svc.Environment[env]; v != nil {
			if d, err = time.ParseDuration(*v); err != nil {
				return 0, fmt.Errorf("%s: %w", env, err)
			}
		}
		total += d
	}
	return total, nil
}
