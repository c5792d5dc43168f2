package capability_test

import (
	"fmt"
	"os"

	"github.com/vera-run/vera/capability"
)

func ExampleParse() {
	f, err := os.Open("testdata/valid/teller_member_balances.json")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer f.Close()
	c, err := capability.Parse(f)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(c.ID, c.Version, c.State)
	for _, m := range c.Milestones {
		fmt.Printf("%s: %d action(s)\n", m.ID, len(m.Actions))
	}
	fmt.Println("risky:", c.Risky())
	// Output:
	// teller.member-balances 1.2.1 discovered
	// login: 3 action(s)
	// search: 2 action(s)
	// read_balances: 1 action(s)
	// risky: false
}

func ExampleCapability_Validate() {
	raw, err := os.ReadFile("testdata/valid/teller_member_balances.json")
	if err != nil {
		fmt.Println(err)
		return
	}
	c, err := capability.ParseBytes(raw)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("problems:", len(c.Validate()))

	// Break two rules: an HTTP origin that is not loopback, and a click
	// that proves nothing.
	c.Site.AllowedOrigins[0] = "http://teller.example.com"
	c.Milestones[0].Actions[2].Postcondition = nil
	for _, e := range c.Validate() {
		fmt.Println(e.Path, e.Code)
	}
	// Output:
	// problems: 0
	// site.allowed_origins[0] insecure_origin
	// milestones[0].actions[2].postcondition missing_postcondition
}

func ExampleCapability_ExecutionHash() {
	raw, err := os.ReadFile("testdata/valid/invoice_export.json")
	if err != nil {
		fmt.Println(err)
		return
	}
	validated, err := capability.ParseBytes(raw)
	if err != nil {
		fmt.Println(err)
		return
	}
	// The same contract before promotion: discovered, no validation.
	discovered, err := validated.Clone()
	if err != nil {
		fmt.Println(err)
		return
	}
	discovered.State, discovered.Validation = capability.StateDiscovered, nil

	h1, err := validated.ExecutionHash()
	if err != nil {
		fmt.Println(err)
		return
	}
	h2, err := discovered.ExecutionHash()
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("promotion keeps the hash:", h1 == h2)

	// Any executable change, such as a locator, changes it.
	discovered.Milestones[3].Actions[1].LocatorCandidates[0].Name = "Confirm and send"
	h3, err := discovered.ExecutionHash()
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("a locator edit changes it:", h3 != h1)
	// Output:
	// promotion keeps the hash: true
	// a locator edit changes it: true
}

func ExampleCheckOrigin() {
	for _, o := range []string{"https://teller.example.com", "http://127.0.0.1:4010", "http://teller.example.com", "https://teller.example.com/"} {
		fmt.Println(o, capability.CheckOrigin(o) == nil)
	}
	// Output:
	// https://teller.example.com true
	// http://127.0.0.1:4010 true
	// http://teller.example.com false
	// https://teller.example.com/ false
}
