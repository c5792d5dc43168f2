package testsite

import (
	"net/http"
	"time"
)

// Transfer page paths on the Teller origin: a consequential form
// submission behind a confirmation dialog, as payment consoles do it.
const (
	// TransferPath is GET the form (button "Review transfer" opens the
	// confirmation dialog "Confirm transfer", whose "Confirm and send"
	// submits) and POST the submission: every POST counts one transfer
	// ([Teller.Transfers]), then, after [Teller.SetTransferDelay], redirects
	// (303) to [TransferDonePath], or answers 500 with an error page when
	// [Teller.BreakTransfers] is on. The dialog stays visible while the
	// submission is in flight, as on most real sites.
	TransferPath = "/transfer"
	// TransferDonePath shows the heading "Transfer sent".
	TransferDonePath = "/transfer/done"
	// EscapeRedirectLink has a link "Continue" to [EscapeRedirect], an
	// allowed URL that redirects (302) to the Outside origin.
	EscapeRedirectLink = "/escape/redirect-link"
)

// DefaultTransferDelay is how long a transfer submission takes until
// [Teller.SetTransferDelay] changes it.
const DefaultTransferDelay = 300 * time.Millisecond

type transferData struct {
	Title string
}

func (t *Teller) transferRoutes(mux *http.ServeMux) {
	mux.HandleFunc("GET "+TransferPath, func(w http.ResponseWriter, r *http.Request) {
		render(w, http.StatusOK, "transfer.html", transferData{Title: "Send transfer"})
	})
	mux.HandleFunc("POST "+TransferPath, func(w http.ResponseWriter, r *http.Request) {
		t.mu.Lock()
		t.transfers++
		delay, broken := t.transferDelay, t.transferBroken
		t.mu.Unlock()
		if !t.sleep(r.Context(), delay) {
			return
		}
		if broken {
			render(w, http.StatusInternalServerError, "transfer_error.html", transferData{Title: "Error"})
			return
		}
		http.Redirect(w, r, TransferDonePath, http.StatusSeeOther)
	})
	mux.HandleFunc("GET "+TransferDonePath, func(w http.ResponseWriter, r *http.Request) {
		render(w, http.StatusOK, "transfer_done.html", transferData{Title: "Transfer sent"})
	})
	mux.HandleFunc("GET "+EscapeRedirectLink, func(w http.ResponseWriter, r *http.Request) {
		out := t.outsideOrigin()
		if out == "" {
			http.Error(w, "testsite: no outside origin configured", http.StatusServiceUnavailable)
			return
		}
		render(w, http.StatusOK, "escape.html", escapeData{Kind: "redirect-link", Title: "Redirect escape", Outside: out})
	})
}

// Transfers counts the transfer submissions the server received (each
// POST /transfer, broken or not).
func (t *Teller) Transfers() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.transfers
}

// SetTransferDelay sets how long a transfer submission takes before the
// server answers; negative means zero.
func (t *Teller) SetTransferDelay(d time.Duration) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.transferDelay = max(d, 0)
}

// BreakTransfers makes every later transfer submission count and then
// answer 500 with an error page (on) or redirect to the done page (off).
func (t *Teller) BreakTransfers(on bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.transferBroken = on
}
