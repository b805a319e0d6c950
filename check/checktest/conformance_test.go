package checktest_test

import (
	"testing"

	"github.com/netsched/netsched/check/checktest"
	"github.com/netsched/netsched/policies"
	_ "github.com/netsched/netsched/policies/all"
)

// TestPlatformsDeclared walks the registry: every policy declares the
// platform kinds it runs on (netsched list prints them), every bundled
// scenario names a policy only on a platform it declares, and a policy
// refuses an instance of its family on every platform kind it does not
// declare.
func TestPlatformsDeclared(t *testing.T) {
	suite := new(checktest.Suite)
	for _, e := range policies.All() {
		suite.Declared(t, e)
	}
}

// TestConformance runs the conformance suite (checktest.Suite) on every
// registered policy: a policy added to the registry is covered without a
// test of its own.
func TestConformance(t *testing.T) {
	suite := new(checktest.Suite)
	if testing.Short() {
		suite.Random = 8
	}
	for _, e := range policies.All() {
		suite.Run(t, e)
	}
}
