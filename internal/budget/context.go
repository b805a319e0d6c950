package budget

import "context"

// ctxKey is the key of the budget a context carries.
type ctxKey struct{}

// NewContext returns ctx carrying b, the budget of what runs under it:
// the memory one run may take (a sweep gives each of its workers a
// share), which an external policy's output is read within.
func NewContext(ctx context.Context, b Bytes) context.Context {
	return context.WithValue(ctx, ctxKey{}, b)
}

// FromContext returns the budget ctx carries, and whether it carries one.
func FromContext(ctx context.Context) (Bytes, bool) {
	b, ok := ctx.Value(ctxKey{}).(Bytes)
	return b, ok
}
