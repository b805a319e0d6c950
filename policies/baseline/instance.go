package baseline

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/netsched/netsched/policies"
)

// admit validates what a baseline is given: no options (the baselines take
// none), a well-formed platform of one of the given kinds, a problem of the
// family it schedules, and a live context. Policies must never panic on bad
// input.
func admit(ctx context.Context, name string, in policies.Instance, family string, kinds ...string) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if in.Platform == nil || in.Problem == nil {
		return fmt.Errorf("%s: instance needs a platform and a problem", name)
	}
	if err := in.Options.Known(); err != nil {
		return fmt.Errorf("%s takes no options: %w", name, err)
	}
	if err := in.Platform.Validate(); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	if err := in.Problem.Validate(in.Platform); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	if f := in.Problem.Family(); f != family {
		return fmt.Errorf("%s schedules %s problems, not %s", name, family, f)
	}
	if k := in.Platform.Kind(); !slices.Contains(kinds, k) {
		return fmt.Errorf("%s runs on %s platforms, not %s", name, strings.Join(kinds, " or "), k)
	}
	return nil
}
