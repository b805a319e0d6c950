package broadcast

import "github.com/netsched/netsched/policies/broadcast/internal/treegen"

// The trees the tests draw, by their names in these tests (see treegen).
var (
	instanceOf         = treegen.Instance
	randomInstance     = treegen.Random
	symmetricInstance  = treegen.Symmetric
	clusteredInstance  = treegen.Clustered
	twoSpeedInstance   = treegen.TwoSpeed
	smpMiniInstance    = treegen.SMPMini
	randomHardInstance = treegen.RandomHard
	smpTree            = treegen.SMP
)
