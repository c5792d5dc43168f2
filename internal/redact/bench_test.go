package redact_test

import (
	"fmt"
	"testing"

	"github.com/vera-run/vera/internal/redact"
)

// A typical 60-character control name with no identifier.
const typicalName = "Scarica estratto conto PDF per il periodo selezionato (2026)"

// batch builds 5,000 control names of the kind discovery redacts per
// snapshot: mostly plain labels, some with prices, dates and counters, one
// in ten with a private identifier.
func batch() []string {
	plain := []string{
		typicalName,
		"Download invoice INV-2041 dated 30/11/2026 total € 1.234,56",
		"Search member by name or number", "Page 1 of 3", "Apply filters",
		"Esporta le fatture del mese in formato CSV", "Saldo disponibile 1,204.10 USD",
		"member-search-results-table-row-edit-button",
	}
	private := []string{
		"Cliente: Mario Rossi (RSSMRA85T10A562S) - scheda anagrafica",
		"Email mario.rossi@example.it, tel. +39 347 123 4567",
		"Conto IT60 X054 2811 1010 0000 0123 456 intestato a Mario",
		"Member 1234567 balance details",
	}
	names := make([]string, 5000)
	for i := range names {
		if i%10 == 9 {
			names[i] = private[i%len(private)]
		} else {
			names[i] = plain[i%len(plain)]
		}
	}
	return names
}

func BenchmarkIdentifiers(b *testing.B) {
	b.Run("typical-60", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(typicalName)))
		for b.Loop() {
			redact.Identifiers(typicalName)
		}
	})
	for _, s := range []string{
		"Cliente: Mario Rossi (RSSMRA85T10A562S) - scheda anagrafica",
		"Email mario.rossi@example.it, tel. +39 347 123 4567",
	} {
		b.Run(fmt.Sprintf("private-%d", len(s)), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				redact.Identifiers(s)
			}
		})
	}
	b.Run("batch-5000", func(b *testing.B) {
		names := batch()
		b.ReportAllocs()
		for b.Loop() {
			for _, n := range names {
				redact.Identifiers(n)
			}
		}
	})
}

func BenchmarkFindSecret(b *testing.B) {
	s := `{"schema":"browser-run-receipt/v3","execution_hash":"sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855","finished_at":"2026-11-30T14:05:00Z"}`
	b.ReportAllocs()
	b.SetBytes(int64(len(s)))
	for b.Loop() {
		redact.FindSecret(s)
	}
}
