package testsite

import (
	"slices"
	"strings"
)

// Member is one teller-console member (seed data).
type Member struct {
	// ID is the numeric member ID typed into "Member ID".
	ID string
	// Name is shown as the detail page's h1 (data-testid="member-name").
	Name string
	// Savings is the savings balance exactly as rendered, e.g. "$12,480.55".
	Savings string
	// Checking is the checking balance exactly as rendered.
	Checking string
}

// TellerMembers is the teller console's seed data, in ID order. It is a
// copy: changing it does not change what the servers render.
var TellerMembers = slices.Clone(tellerMembers)

var tellerMembers = []Member{
	{ID: "100234", Name: "Ada Lovelace", Savings: "$12,480.55", Checking: "$1,204.10"},
	{ID: "100235", Name: "Grace Hopper", Savings: "$3,050.00", Checking: "$88.19"},
	{ID: "100236", Name: "Katherine Johnson", Savings: "$47,915.02", Checking: "$2,310.77"},
	{ID: "100237", Name: "Alan Turing", Savings: "$0.00", Checking: "$15.00"},
	{ID: "100238", Name: "Hedy Lamarr", Savings: "$8,120.40", Checking: "$640.00"},
	{ID: "100239", Name: "Edsger Dijkstra", Savings: "$21,002.13", Checking: "$3.50"},
	{ID: "100240", Name: "Barbara Liskov", Savings: "$5,555.55", Checking: "$1,010.01"},
	{ID: "100241", Name: "Donald Knuth", Savings: "$2.56", Checking: "$327.68"},
}

// LookupMember returns the seed member with the given ID.
func LookupMember(id string) (Member, bool) {
	for _, m := range tellerMembers {
		if m.ID == id {
			return m, true
		}
	}
	return Member{}, false
}

// Message is one mail-client message (seed data).
type Message struct {
	Sender  string `json:"sender"`
	Subject string `json:"subject"`
	// Date is ISO yyyy-mm-dd, rendered verbatim in the row's .date span.
	Date string `json:"date"`
}

// MailMessages is the mail client's inbox, newest first, in the order the
// inbox renders it. It is a copy: changing it does not change the servers.
var MailMessages = slices.Clone(mailMessages)

var mailMessages = []Message{
	{Sender: "Studio Rossi", Subject: "Fattura marzo 2026", Date: "2026-03-28"},
	{Sender: "Café Aurora", Subject: "Prenotazione confermata", Date: "2026-03-27"},
	{Sender: "Ada Lovelace", Subject: "Notes on the Analytical Engine", Date: "2026-03-25"},
	{Sender: "Grace Hopper", Subject: "Compiler meeting moved to Friday", Date: "2026-03-24"},
	{Sender: "Billing Team", Subject: "Your invoice INV-2041 is ready", Date: "2026-03-20"},
	{Sender: "Nordic Timber AB", Subject: "Shipment update", Date: "2026-03-18"},
	{Sender: "Alan Turing", Subject: "Lunch at the café?", Date: "2026-03-15"},
	{Sender: "Studio Rossi", Subject: "Fattura febbraio 2026", Date: "2026-02-27"},
}

// SearchMail returns the messages the mail client lists for query, in inbox
// order: a message matches when every whitespace-separated term of query
// occurs, case-insensitively, in its sender or subject. A blank query
// matches nothing (the client ignores it). The page's JavaScript applies the
// same rule after Unicode NFC normalization; SearchMail assumes NFC input.
func SearchMail(query string) []Message {
	terms := strings.Fields(strings.ToLower(query))
	if len(terms) == 0 {
		return nil
	}
	var out []Message
	for _, m := range mailMessages {
		hay := strings.ToLower(m.Sender + " " + m.Subject)
		ok := true
		for _, t := range terms {
			if !strings.Contains(hay, t) {
				ok = false
				break
			}
		}
		if ok {
			out = append(out, m)
		}
	}
	return out
}

// Invoice is one ledger invoice (seed data).
type Invoice struct {
	// Number is like "INV-2041".
	Number string `json:"number"`
	// Customer is the customer's display name.
	Customer string `json:"customer"`
	// Date is ISO yyyy-mm-dd.
	Date string `json:"date"`
	// Amount is a number with thousands separators and two decimals, e.g.
	// "1,234.56"; it coerces to a number once commas are removed.
	Amount string `json:"amount"`
	// Status is "Paid" or "Open".
	Status string `json:"status"`
}

// Invoices is the ledger's seed data (23 invoices, INV-2041 to INV-2063), in
// the order the ledger renders them, 10 per page. It is a copy: changing it
// does not change the servers.
var Invoices = slices.Clone(invoices)

var invoices = []Invoice{
	{"INV-2041", "Acme S.p.A.", "2026-03-02", "1,234.56", "Paid"},
	{"INV-2042", "Bianchi & Figli S.r.l.", "2026-03-02", "880.00", "Paid"},
	{"INV-2043", "Nordic Timber AB", "2026-03-03", "12,400.00", "Open"},
	{"INV-2044", "Café Aurora", "2026-03-04", "96.50", "Paid"},
	{"INV-2045", "Studio Rossi", "2026-03-05", "2,150.75", "Open"},
	{"INV-2046", "Globex Corporation", "2026-03-05", "4,999.99", "Paid"},
	{"INV-2047", "Initech GmbH", "2026-03-06", "310.20", "Open"},
	{"INV-2048", "Acme S.p.A.", "2026-03-09", "7,020.00", "Paid"},
	{"INV-2049", "Umbrella Logistics", "2026-03-09", "1,050.40", "Open"},
	{"INV-2050", "Hooli Europe", "2026-03-10", "23,318.10", "Paid"},
	{"INV-2051", "Bianchi & Figli S.r.l.", "2026-03-11", "645.00", "Open"},
	{"INV-2052", "Vandelay Industries", "2026-03-12", "1,999.00", "Paid"},
	{"INV-2053", "Nordic Timber AB", "2026-03-13", "5,600.00", "Paid"},
	{"INV-2054", "Müller Werkzeuge KG", "2026-03-16", "3,275.35", "Open"},
	{"INV-2055", "Acme S.p.A.", "2026-03-16", "150.00", "Paid"},
	{"INV-2056", "Studio Rossi", "2026-03-17", "8,420.80", "Open"},
	{"INV-2057", "Globex Corporation", "2026-03-18", "1,234.56", "Paid"},
	{"INV-2058", "Café Aurora", "2026-03-19", "72.25", "Open"},
	{"INV-2059", "Initech GmbH", "2026-03-20", "14,000.00", "Paid"},
	{"INV-2060", "Hooli Europe", "2026-03-23", "990.90", "Open"},
	{"INV-2061", "Umbrella Logistics", "2026-03-24", "2,480.00", "Paid"},
	{"INV-2062", "Vandelay Industries", "2026-03-25", "305.15", "Open"},
	{"INV-2063", "Müller Werkzeuge KG", "2026-03-26", "11,111.11", "Paid"},
}
