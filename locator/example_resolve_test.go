package locator_test

import (
	"context"
	"fmt"

	"github.com/vera-run/vera/locator"
)

func ExampleResolve() {
	// A page where the button's accessible name is shared by two elements
	// and its label is unique.
	page := map[string][]string{
		"Search": {"button#1", "link#7"},
		"Find":   {"button#1"},
	}
	finder := locator.FinderFunc[string](func(_ context.Context, c locator.Candidate) ([]string, error) {
		return page[c.Value()], nil
	})
	res, err := locator.Resolve(context.Background(), finder, []locator.Candidate{
		{Strategy: locator.Role, Role: "button", Name: "Search"},
		{Strategy: locator.Label, Label: "Find"},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(res.Index, res.Element, res.Tried)
	// Output: 1 button#1 [0:ambiguous:2]
}

func ExampleResolveAll() {
	rows := map[string][]string{"tr.invoice:visible": {"row1", "row2"}}
	finder := locator.FinderFunc[string](func(_ context.Context, c locator.Candidate) ([]string, error) {
		return rows[c.Value()], nil
	})
	res, err := locator.ResolveAll(context.Background(), finder, []locator.Candidate{
		{Strategy: locator.Role, Role: "row", Name: "Invoice"},
		{Strategy: locator.CSS, CSS: "tr.invoice:visible"},
	})
	fmt.Println(res.Index, res.Elements, err)
	// Output: 1 [row1 row2] <nil>
}
