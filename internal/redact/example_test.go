package redact_test

import (
	"fmt"

	"github.com/vera-run/vera/internal/redact"
)

func ExampleIdentifiers() {
	out, n := redact.Identifiers("Cliente: Mario Rossi (RSSMRA85T10A562S), tel. +39 347 123 4567")
	fmt.Println(out, n)
	out, n = redact.Identifiers("Fattura INV-2041 del 30/11/2026, totale € 1.234,56")
	fmt.Println(out, n)
	// Output:
	// Cliente: Mario Rossi (⟦redacted⟧), tel. ⟦redacted⟧ 2
	// Fattura INV-2041 del 30/11/2026, totale € 1.234,56 0
}

func ExampleFindIdentifiers() {
	for _, m := range redact.FindIdentifiers("Conto IT60 X054 2811 1010 0000 0123 456, mario.rossi@example.it") {
		fmt.Println(m.Kind, m.Start, m.End)
	}
	// Output:
	// iban 6 39
	// email 41 63
}

func ExampleContainsIdentifier() {
	fmt.Println(redact.ContainsIdentifier("Carta 4111 1111 1111 1111"))
	fmt.Println(redact.ContainsIdentifier("Page 1 of 3"))
	// Output:
	// true
	// false
}

func ExampleFindSecret() {
	fmt.Println(redact.FindSecret("https://user:pass@bank.example/login"))
	fmt.Println(redact.FindSecret("Authorization: Bearer 0a1b2c3d"))
	fmt.Println(redact.FindSecret("sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"))
	// Output:
	// url_credentials true
	// authorization_header true
	//  false
}

func ExampleScanJSON() {
	doc := []byte(`{"milestones":[{"actions":[]},{"actions":[{"value":"token=abc123"}]}],
		"login":{"user":"mario","password":"hunter2"}}`)
	for _, f := range redact.ScanJSON(doc) {
		fmt.Println(f.Path, f.Kind)
	}
	// Output:
	// milestones[1].actions[0].value credential_assignment
	// login.password credential_field
}
