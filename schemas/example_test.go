package schemas_test

import (
	"fmt"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/netsched/netsched/schemas"
)

// Compile gives a schema to validate with; a scenario in YAML is first
// turned into its JSON value by YAMLValue.
func ExampleCompile() {
	schedule, err := schemas.Compile(schemas.ScheduleFile)
	if err != nil {
		fmt.Println(err)
		return
	}
	doc, err := jsonschema.UnmarshalJSON(strings.NewReader(`{"claimed_makespan": 2,
		"actions": [{"kind": "compute", "node": "P0", "amount": 2, "start": 0, "tag": "x"}]}`))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(schedule.Validate(doc))

	scenario, err := schemas.Compile(schemas.ScenarioFile)
	if err != nil {
		fmt.Println(err)
		return
	}
	v, err := schemas.YAMLValue([]byte("platform: {delay: {rho: 1}}\nproblem: {dag: {tasks: [{weight: 1}]}}\npolicies: [sequential]\n"))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("scenario valid:", scenario.Validate(v) == nil)
	// Output:
	// jsonschema validation failed with 'https://github.com/netsched/netsched/schemas/schedule.schema.json#'
	// - at '/actions/0': additional properties 'tag' not allowed
	// scenario valid: true
}
