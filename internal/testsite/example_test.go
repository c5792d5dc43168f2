package testsite_test

import (
	"fmt"
	"net/http"

	"github.com/vera-run/vera/internal/testsite"
)

// Example starts every synthetic app, loads the teller sign-in page and
// reads the hit counter.
func Example() {
	sites, err := testsite.Start()
	if err != nil {
		fmt.Println("start:", err)
		return
	}
	defer sites.Close()

	resp, err := http.Get(sites.Teller.URL() + "/login")
	if err != nil {
		fmt.Println("get:", err)
		return
	}
	resp.Body.Close()
	http.DefaultClient.CloseIdleConnections()

	fmt.Println(resp.StatusCode, sites.Teller.Hits("/login"), sites.Outside.TotalHits())
	// Output: 200 1 0
}

// ExampleStartTeller starts only the teller console and renames the search
// button for a locator-recovery scenario.
func ExampleStartTeller() {
	teller, err := testsite.StartTeller()
	if err != nil {
		fmt.Println("start:", err)
		return
	}
	defer teller.Close()
	teller.RenameSearchButton("Find member")
	member, _ := testsite.LookupMember("100234")
	fmt.Println(member.Name, member.Savings, member.Checking)
	// Output: Ada Lovelace $12,480.55 $1,204.10
}

// ExampleInvoicing_ExportCSV compares a served export with the expected
// bytes.
func ExampleInvoicing_ExportCSV() {
	inv, err := testsite.StartInvoicing()
	if err != nil {
		fmt.Println("start:", err)
		return
	}
	defer inv.Close()
	inv.SetExportSize(1 << 20)
	fmt.Println(len(inv.ExportCSV()), inv.WorkspaceOrigin() != inv.URL())
	// Output: 1048576 true
}
