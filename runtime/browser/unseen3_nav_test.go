package browser

import (
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/vera-run/vera/internal/testsite"
	"github.com/vera-run/vera/runtime"
)

// Navigation, timing and network behaviour the code has never seen:
// capabilities written from FORMAT.md, as an author would, against the
// unseen3 navigation pages of internal/testsite (unseen3_nav.go: a login
// that leaves by location.replace and then a meta refresh; an SPA whose
// route changes keep the old view until the new data is in; a save the
// page retries after 503 with backoff; an inbox with a heartbeat stream
// and a poll; orders whose session expires mid-flow). Each case checks
// the business answer and what the server received.

// unseen3Login signs in and reads the account card. click is the
// postcondition of "Sign in".
func unseen3Login(click string) string {
	return `
  "inputs": [{"name": "email", "type": "string", "required": true, "max_length": 80},
             {"name": "password", "type": "string", "required": true, "secret": true, "max_length": 80}],
  "outputs": [{"name": "account", "kind": "record", "exposure": "model_and_artifact", "required": true,
    "fields": [{"name": "name", "type": "string"}, {"name": "plan", "type": "string"}]}],
  "milestones": [{
    "id": "sign-in",
    "intent": "Sign in and read the account",
    "actions": [
      {"id": "email", "operation": "fill", "intent": "Type the email", "effect": "read_only", "confirmation": "none",
       "locator_candidates": [{"strategy": "label", "label": "Email", "exact": true}],
       "input": "email",
       "postcondition": {"kind": "locator_visible", "locator_candidates": [{"strategy": "label", "label": "Email", "exact": true}]}},
      {"id": "password", "operation": "fill", "intent": "Type the password", "effect": "read_only", "confirmation": "none",
       "locator_candidates": [{"strategy": "label", "label": "Password", "exact": true}],
       "input": "password",
       "postcondition": {"kind": "locator_visible", "locator_candidates": [{"strategy": "label", "label": "Password", "exact": true}]}},
      {"id": "sign-in", "operation": "click", "intent": "Sign in", "effect": "read_only", "confirmation": "none",
       "locator_candidates": [{"strategy": "role", "role": "button", "name": "Sign in", "exact": true}],
       "postcondition": ` + click + `},
      {"id": "read-account", "operation": "extract", "intent": "Read the account", "effect": "read_only", "confirmation": "none",
       "locator_candidates": [{"strategy": "role", "role": "region", "name": "Account", "exact": true}],
       "output": "account",
       "extract": {"mode": "single", "required_fields": ["name", "plan"], "fields": [
         {"name": "name", "type": "string", "locator_candidates": [{"strategy": "test_id", "test_id": "account-name"}]},
         {"name": "plan", "type": "string", "locator_candidates": [{"strategy": "test_id", "test_id": "account-plan"}]}]},
       "postcondition": {"kind": "output_produced", "output": "account"}}
    ]
  }]`
}

// TestUnseen3NavLogin: the login answers 200, the page shows a status
// and leaves by location.replace to a bridge page whose meta refresh
// (0 or 1 s) goes to the account page, which fetches the account. The
// read is the signed-in account's, never the bridge's or the login's;
// the server saw exactly one login, for that email.
func TestUnseen3NavLogin(t *testing.T) {
	t.Parallel()
	d := shared(t)
	s := sites(t)
	heading := `{"kind": "locator_visible", "locator_candidates": [{"strategy": "role", "role": "heading", "name": "Your account", "exact": true}]}`
	path := `{"kind": "url_path", "value": "/unseen3n/home"}`
	for _, tc := range []struct{ name, refresh, post string }{
		{"heading/refresh=1", "1", heading},
		{"heading/refresh=0", "0", heading},
		{"url/refresh=1", "1", path},
		{"url/refresh=0", "0", path},
	} {
		for _, acct := range testsite.Unseen3NavAccounts() {
			t.Run(tc.name+"/"+acct.Email, func(t *testing.T) {
				before := len(s.Stress.Unseen3NavLogins())
				c := wcCapabilityQuery(t, s.Stress.Origin(), "unseen3n-login", "/unseen3n/login",
					`[{"name": "refresh", "value": "`+tc.refresh+`"}]`, unseen3Login(tc.post))
				res := execute(t, tctx(t, 60*time.Second), d, c, map[string]any{"email": acct.Email, "password": testsite.Unseen3NavPassword})
				wantState(t, res, runtime.StateCompleted, "")
				want := map[string]any{"name": acct.Name, "plan": acct.Plan}
				if got := asJSON(t, res.ModelOutputs["account"]); !reflect.DeepEqual(got, want) {
					t.Errorf("account = %v, want %v", got, want)
				}
				if got := s.Stress.Unseen3NavLogins()[before:]; !reflect.DeepEqual(got, []string{acct.Email}) {
					t.Errorf("server logins = %v, want [%s]", got, acct.Email)
				}
			})
		}
	}
}

// unseen3CRM opens an account from the list, reads it, follows "Next
// account" and reads that one. open and next are the two clicks'
// postconditions.
func unseen3CRM(open, next string, guarded bool) string {
	read := func(id, out string) string {
		return `{"id": "` + id + `", "operation": "extract", "intent": "Read the account", "effect": "read_only", "confirmation": "none",
       "locator_candidates": [{"strategy": "role", "role": "main"}],
       "output": "` + out + `",
       "extract": {"mode": "single", "required_fields": ["name", "owner", "balance"], "fields": [
         {"name": "name", "type": "string", "locator_candidates": [{"strategy": "css", "css": "#acct-name"}]},
         {"name": "owner", "type": "string", "locator_candidates": [{"strategy": "test_id", "test_id": "owner"}]},
         {"name": "balance", "type": "string", "locator_candidates": [{"strategy": "test_id", "test_id": "balance"}]}]},
       "postcondition": {"kind": "output_produced", "output": "` + out + `"}}`
	}
	nextInput := ""
	if guarded {
		nextInput = `,
             {"name": "next_customer", "type": "string", "required": true, "max_length": 80}`
	}
	fields := `"fields": [{"name": "name", "type": "string"}, {"name": "owner", "type": "string"}, {"name": "balance", "type": "string"}]`
	return `
  "inputs": [{"name": "customer", "type": "string", "required": true, "max_length": 80}` + nextInput + `],
  "outputs": [{"name": "first", "kind": "record", "exposure": "model_and_artifact", "required": true, ` + fields + `},
              {"name": "second", "kind": "record", "exposure": "model_and_artifact", "required": true, ` + fields + `}],
  "milestones": [{
    "id": "accounts",
    "intent": "Read two accounts",
    "actions": [
      {"id": "open", "operation": "click", "intent": "Open the account", "effect": "read_only", "confirmation": "none",
       "locator_candidates": [{"strategy": "role", "role": "link", "name": "{{customer}}", "exact": true}],
       "postcondition": ` + open + `},
      ` + read("read-first", "first") + `,
      {"id": "next", "operation": "click", "intent": "Open the next account", "effect": "read_only", "confirmation": "none",
       "locator_candidates": [{"strategy": "role", "role": "link", "name": "Next account", "exact": true}],
       "postcondition": ` + next + `},
      ` + read("read-second", "second") + `
    ]
  }]`
}

func unseen3CRMWant(a testsite.Unseen3NavCRMAccount) map[string]any {
	return map[string]any{"name": a.Name, "owner": a.Owner, "balance": testsite.UnseenEuro(a.Balance)}
}

// TestUnseen3NavSPA: a route change by pushState keeps the old account on
// screen (same fields, same test ids) under a progressbar until the new
// account's data is in (1.5 s or 3.5 s, past Settle's cap). The second
// read must be the next account's, never the one still on screen. The
// author's naive postcondition is the URL (which pushState satisfies at
// once); the guarded one the new account's heading. defer is when the
// router starts the data fetch: in the click handler, in an animation
// frame, in a MessageChannel task (React's scheduler), or after loading
// a route chunk. The chunk case was a wrong answer: Settle followed the
// chunk's script request only until the interceptor continued it, so the
// click's Settle ended (60-130 ms) while the chunk was on the wire, the
// data fetch it then started was no act's, and the old account, still on
// screen under the progressbar, was read as the next one. A script the
// act asked for is now followed to its end as an act-caused load.
func TestUnseen3NavSPA(t *testing.T) {
	t.Parallel()
	d := shared(t)
	s := sites(t)
	all := testsite.Unseen3NavCRM()
	first, second := all[0], all[1]
	naive := `{"kind": "url_includes", "value": "/accounts/"}`
	guard := func(in string) string {
		return `{"kind": "locator_visible", "locator_candidates": [{"strategy": "role", "role": "heading", "name": "{{` + in + `}}", "exact": true}]}`
	}
	for _, tc := range []struct {
		defer_, delay string
		guarded       bool
		fault         string
	}{
		{"", "1500", false, ""},
		{"", "3500", false, ""},
		{"mc", "1500", false, ""},
		{"mc", "3500", false, ""},
		{"raf", "1500", false, ""},
		{"raf", "3500", false, ""},
		{"chunk", "1500", false, ""},
		{"chunk", "3500", false, ""},
		{"raf", "3500", true, ""},
		{"chunk", "3500", true, ""},
	} {
		name := "naive"
		body := unseen3CRM(naive, naive, false)
		if tc.guarded {
			name = "guarded"
			body = unseen3CRM(guard("customer"), guard("next_customer"), true)
		}
		name += "/defer=" + tc.defer_ + "/delay=" + tc.delay
		t.Run(name, func(t *testing.T) {
			skipFault(t, tc.fault)
			before := len(s.Stress.Unseen3NavAccountReads())
			c := wcCapabilityQuery(t, s.Stress.Origin(), "unseen3n-crm", "/unseen3n/crm",
				`[{"name": "defer", "value": "`+tc.defer_+`"}, {"name": "delay", "value": "`+tc.delay+`"}]`, body)
			in := map[string]any{"customer": first.Name}
			if tc.guarded {
				in["next_customer"] = second.Name
			}
			res := execute(t, tctx(t, 90*time.Second), d, c, in)
			wantState(t, res, runtime.StateCompleted, "")
			if got, want := asJSON(t, res.ModelOutputs["first"]), unseen3CRMWant(first); !reflect.DeepEqual(got, want) {
				t.Errorf("first = %v, want %v", got, want)
			}
			if got, want := asJSON(t, res.ModelOutputs["second"]), unseen3CRMWant(second); !reflect.DeepEqual(got, want) {
				t.Errorf("second = %v, want %v (the old view read after the route change)", got, want)
			}
			if got, want := s.Stress.Unseen3NavAccountReads()[before:], []string{first.ID, second.ID}; !reflect.DeepEqual(got, want) {
				t.Errorf("server answered %v when the run ended, want %v", got, want)
			}
		})
	}
}

// unseen3Profile changes the phone number and reads the number on file.
func unseen3Profile(saved string) string {
	return `
  "inputs": [{"name": "phone", "type": "string", "required": true, "max_length": 40}],
  "outputs": [{"name": "on_file", "kind": "text", "exposure": "model_and_artifact", "required": true}],
  "milestones": [{
    "id": "profile",
    "intent": "Change the phone number",
    "actions": [
      {"id": "phone", "operation": "fill", "intent": "Type the phone number", "effect": "reversible", "confirmation": "none",
       "locator_candidates": [{"strategy": "label", "label": "Phone", "exact": true}],
       "input": "phone",
       "postcondition": {"kind": "locator_visible", "locator_candidates": [{"strategy": "label", "label": "Phone", "exact": true}]}},
      {"id": "save", "operation": "click", "intent": "Save the profile", "effect": "reversible", "confirmation": "none",
       "locator_candidates": [{"strategy": "role", "role": "button", "name": "Save changes", "exact": true}],
       "postcondition": ` + saved + `},
      {"id": "read", "operation": "extract", "intent": "Read the phone on file", "effect": "read_only", "confirmation": "none",
       "locator_candidates": [{"strategy": "test_id", "test_id": "phone"}],
       "output": "on_file",
       "extract": {"mode": "text"},
       "postcondition": {"kind": "output_produced", "output": "on_file"}}
    ]
  }]`
}

// TestUnseen3NavRetry: the save answers 503 (fail times) and the page
// retries after a backoff (doubling). Shown saving states: the author
// proves the save by "Changes saved". Optimistic: the page shows the new
// number at once and retries silently, so the only postcondition an
// author can write is the number shown. Either way a completed run must
// mean the server stored the number by the time Execute returns: a
// completed run whose save never reached the server is the worst answer.
// The optimistic cases were a wrong answer: the click's POST was
// answered 503, the page handled it without a DOM change and set a
// backoff timer, Settle saw the act's request answered and the DOM quiet
// and ended; the retry the timer sent 300-1000 ms later was no act's
// work, the run completed with on_file = the new number while the server
// had stored nothing, and the next navigation dropped the retry. An
// act-caused load answered with a status pages retry now keeps its
// frame's chain window open for the retry (causal.later).
func TestUnseen3NavRetry(t *testing.T) {
	t.Parallel()
	d := shared(t)
	s := sites(t)
	savedText := `{"kind": "text_visible", "text": "Changes saved"}`
	shown := `{"kind": "text_visible", "text": "{{phone}}"}`
	for i, tc := range []struct {
		fail, backoff string
		optimistic    bool
		fault         string
	}{
		{"0", "500", false, ""},
		{"2", "300", false, ""},
		{"2", "1000", false, ""},
		{"0", "500", true, ""},
		{"1", "300", true, ""},
		{"1", "1000", true, ""},
		{"2", "300", true, ""},
		{"2", "1000", true, ""},
		{"3", "500", false, ""},
		{"3", "500", true, ""},
		{"5", "300", false, ""},
		{"5", "300", true, ""},
	} {
		name := "status"
		post := savedText
		opt := "0"
		if tc.optimistic {
			name, post, opt = "optimistic", shown, "1"
		}
		name += "/fail=" + tc.fail + "/backoff=" + tc.backoff
		t.Run(name, func(t *testing.T) {
			skipFault(t, tc.fault)
			phone := "+39 06 555 01" + strconv.Itoa(10+i)
			before := len(s.Stress.Unseen3NavPhones())
			c := wcCapabilityQuery(t, s.Stress.Origin(), "unseen3n-profile", "/unseen3n/profile",
				`[{"name": "fail", "value": "`+tc.fail+`"}, {"name": "backoff", "value": "`+tc.backoff+`"}, {"name": "optimistic", "value": "`+opt+`"}]`,
				unseen3Profile(post))
			res := execute(t, tctx(t, 60*time.Second), d, c, map[string]any{"phone": phone})
			// fail=5: every attempt the page makes is refused.
			for _, p := range unseen3ProfileJudge(res, s.Stress.Unseen3NavPhones()[before:], phone, tc.fail == "5") {
				t.Error(p)
			}
			if got := res.ModelOutputs["on_file"]; res.State == runtime.StateCompleted && got != phone {
				t.Errorf("on_file = %q, want %q", got, phone)
			}
		})
	}
}

// TestUnseen3NavDropped: the save's connection is closed without an
// answer (dropped 1 or 5 times; the page retries a network error as it
// does a 503). Through the network gate the closed connection reaches the
// page as the gate's 502; without it (a remote endpoint, or an https
// tunnel) as a network error (Network.loadingFailed). Either way a
// completed run must mean the server stored the number; all five dropped,
// the run fails postcondition_failed at the save: before, the optimistic
// page kept the new number on screen and the run completed with the
// server holding nothing.
func TestUnseen3NavDropped(t *testing.T) {
	t.Parallel()
	requireBrowser(t)
	s := sites(t)
	gateless, err := Launch(tctx(t, 30*time.Second), withoutGate())
	if err != nil {
		t.Fatal(err)
	}
	defer gateless.Close()
	for i, tc := range []struct {
		gate bool
		drop string
	}{{true, "1"}, {true, "5"}, {false, "1"}, {false, "5"}} {
		name := "gateless"
		if tc.gate {
			name = "gate"
		}
		t.Run(name+"/drop="+tc.drop, func(t *testing.T) {
			d := gateless
			if tc.gate {
				d = shared(t)
			}
			phone := "+39 06 555 02" + strconv.Itoa(10+i)
			before := len(s.Stress.Unseen3NavPhones())
			c := wcCapabilityQuery(t, s.Stress.Origin(), "unseen3n-profile", "/unseen3n/profile",
				`[{"name": "drop", "value": "`+tc.drop+`"}, {"name": "backoff", "value": "300"}, {"name": "optimistic", "value": "1"}]`,
				unseen3Profile(`{"kind": "text_visible", "text": "{{phone}}"}`))
			res := execute(t, tctx(t, 60*time.Second), d, c, map[string]any{"phone": phone})
			for _, p := range unseen3ProfileJudge(res, s.Stress.Unseen3NavPhones()[before:], phone, tc.drop == "5") {
				t.Error(p)
			}
		})
	}
}

// unseen3ProfileJudge returns the problems of a profile run given the
// numbers the server stored during it. refused (every attempt of the
// page refused or dropped) wants a failed save: postcondition_failed at
// the save, nothing stored. Otherwise the run must complete clean with
// the number stored: a completed save that never reached the server is
// the worst answer.
func unseen3ProfileJudge(res *runtime.Result, stored []string, phone string, refused bool) []string {
	if refused {
		var p []string
		if len(stored) != 0 {
			p = append(p, fmt.Sprintf("the server stored %q", stored))
		}
		return append(p, wantFailedAt(res, "save")...)
	}
	if res.State == runtime.StateCompleted && !slices.Equal(stored, []string{phone}) {
		return []string{fmt.Sprintf("completed with the server holding %q, want [%q]", stored, phone)}
	}
	return wantCompleted(res)
}

// unseen3Inbox sends a reply and reads its delivery.
const unseen3Inbox = `
  "inputs": [{"name": "reply", "type": "string", "required": true, "max_length": 200}],
  "outputs": [{"name": "delivery", "kind": "text", "exposure": "model_and_artifact"},
              {"name": "ref", "kind": "text", "exposure": "model_and_artifact"}],
  "milestones": [{
    "id": "reply",
    "intent": "Reply to the ticket",
    "actions": [
      {"id": "type", "operation": "fill", "intent": "Type the reply", "effect": "reversible", "confirmation": "none",
       "locator_candidates": [{"strategy": "label", "label": "Reply", "exact": true}],
       "input": "reply",
       "postcondition": {"kind": "locator_visible", "locator_candidates": [{"strategy": "label", "label": "Reply", "exact": true}]}},
      {"id": "send", "operation": "click", "intent": "Send the reply", "effect": "reversible", "confirmation": "none",
       "locator_candidates": [{"strategy": "role", "role": "button", "name": "Send reply", "exact": true}],
       "postcondition": {"kind": "text_visible", "text": "{{reply}}"}},
      {"id": "read-delivery", "operation": "extract", "intent": "Read the delivery", "effect": "read_only", "confirmation": "none",
       "locator_candidates": [{"strategy": "test_id", "test_id": "delivery"}],
       "output": "delivery",
       "extract": {"mode": "text"},
       "postcondition": {"kind": "output_produced", "output": "delivery"}},
      {"id": "read-ref", "operation": "extract", "intent": "Read the reference", "effect": "read_only", "confirmation": "none",
       "locator_candidates": [{"strategy": "test_id", "test_id": "reply-ref"}],
       "output": "ref",
       "extract": {"mode": "text"},
       "postcondition": {"kind": "output_produced", "output": "ref"}}
    ]
  }]`

// TestUnseen3NavHeartbeat: an inbox with an EventSource heartbeat every
// 300 ms (the stream ends every 1.5 s and the page reconnects) and a
// fetch poll every second. The heartbeat is not the act's work: the fill
// and the reads must not be held to Settle's 3 s cap. The click's own
// POST (3.5 s, past the cap; or 0.5 s) must be waited for: the reply is
// shown at once ("Sending…"), so the delivery read is "Sent" with its
// reference only if the barrier held, and the server has the reply.
func TestUnseen3NavHeartbeat(t *testing.T) {
	t.Parallel()
	d := shared(t)
	s := sites(t)
	for _, send := range []string{"500", "3500"} {
		t.Run("send="+send, func(t *testing.T) {
			reply := "VAT corrected to 22% on INV-2042 (" + send + ")"
			before := len(s.Stress.Unseen3NavReplies())
			c := wcCapabilityQuery(t, s.Stress.Origin(), "unseen3n-inbox", "/unseen3n/inbox",
				`[{"name": "send", "value": "`+send+`"}]`, unseen3Inbox)
			res := execute(t, tctx(t, 60*time.Second), d, c, map[string]any{"reply": reply})
			wantState(t, res, runtime.StateCompleted, "")
			if got := res.ModelOutputs["delivery"]; got != "Sent" {
				t.Errorf("delivery = %q, want Sent (the click's POST was not waited for)", got)
			}
			if got, _ := res.ModelOutputs["ref"].(string); len(got) < 3 || got[:2] != "R-" {
				t.Errorf("ref = %q, want R-<n>", got)
			}
			if got := s.Stress.Unseen3NavReplies()[before:]; !reflect.DeepEqual(got, []string{reply}) {
				t.Errorf("server replies = %q, want [%q]", got, reply)
			}
			for _, a := range res.Actions {
				t.Logf("%s: %v", a.ID, a.Duration.Round(time.Millisecond))
				if a.ID != "send" && a.Duration >= settleCap {
					t.Errorf("action %s took %v: held to the barrier's cap by the heartbeat", a.ID, a.Duration)
				}
			}
		})
	}
}

// unseen3Orders opens an order and reads its total; outcomes is the
// capability's business_outcomes member ("" for none).
func unseen3Orders(outcomes string) string {
	return `
  "inputs": [{"name": "order", "type": "string", "required": true, "max_length": 20}],
  "outputs": [{"name": "total", "kind": "text", "exposure": "model_and_artifact", "required": true}],` + outcomes + `
  "milestones": [{
    "id": "order",
    "intent": "Read the order's total",
    "actions": [
      {"id": "open", "operation": "click", "intent": "Open the order", "effect": "read_only", "confirmation": "none",
       "locator_candidates": [{"strategy": "role", "role": "link", "name": "{{order}}", "exact": true}],
       "postcondition": {"kind": "locator_visible", "locator_candidates": [{"strategy": "role", "role": "heading", "name": "Order {{order}}", "exact": true}]}},
      {"id": "read", "operation": "extract", "intent": "Read the total", "effect": "read_only", "confirmation": "none",
       "locator_candidates": [{"strategy": "test_id", "test_id": "order-total"}],
       "output": "total",
       "extract": {"mode": "text"},
       "postcondition": {"kind": "output_produced", "output": "total"}}
    ]
  }]`
}

const (
	unseen3ExpiredText = `
  "business_outcomes": [{"code": "session_expired", "description": "The session expired; the operator must sign in again",
    "detect": {"visible_text": "Your session has expired"}}],`
	unseen3ExpiredURL = `
  "business_outcomes": [{"code": "session_expired", "description": "The session expired; the operator must sign in again",
    "detect": {"url_pattern": "^/unseen3n/login$"}}],`
)

// TestUnseen3NavExpired: the order API answers 401 when the session has
// expired; the page shows an interstitial and 1.2 s later goes to the
// login, or (redirect=now) replaces itself by the login at once. The run
// ends with the business outcome session_expired when the capability
// names it (by the interstitial's text, or by the login's URL), else it
// fails postcondition_failed at the click: never a completed read, never
// a read of the login page. With a live session it reads the total.
func TestUnseen3NavExpired(t *testing.T) {
	t.Parallel()
	d := shared(t)
	s := sites(t)
	o := testsite.Unseen3NavOrders()[1]
	for _, tc := range []struct {
		name, query, outcomes, want string
	}{
		{"live", `[{"name": "expired", "value": "0"}]`, unseen3ExpiredText, ""},
		{"interstitial/text", `[{"name": "expired", "value": "1"}]`, unseen3ExpiredText, "session_expired"},
		{"interstitial/url", `[{"name": "expired", "value": "1"}]`, unseen3ExpiredURL, "session_expired"},
		{"interstitial/none", `[{"name": "expired", "value": "1"}]`, "", "postcondition_failed"},
		{"redirect/url", `[{"name": "expired", "value": "1"}, {"name": "redirect", "value": "now"}]`, unseen3ExpiredURL, "session_expired"},
		{"redirect/none", `[{"name": "expired", "value": "1"}, {"name": "redirect", "value": "now"}]`, "", "postcondition_failed"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := len(s.Stress.Unseen3NavOrderReads())
			c := wcCapabilityQuery(t, s.Stress.Origin(), "unseen3n-orders", "/unseen3n/orders", tc.query, unseen3Orders(tc.outcomes))
			res := execute(t, tctx(t, 60*time.Second), d, c, map[string]any{"order": o.Number})
			if got := s.Stress.Unseen3NavOrderReads()[before:]; !reflect.DeepEqual(got, []string{o.Number}) {
				t.Errorf("server order reads = %v, want [%s]", got, o.Number)
			}
			if v, ok := res.ModelOutputs["total"]; ok && tc.want != "" {
				t.Errorf("total = %q produced on an expired session", v)
			}
			switch tc.want {
			case "":
				wantState(t, res, runtime.StateCompleted, "")
				if got, want := res.ModelOutputs["total"], testsite.UnseenEuro(o.Total); got != want {
					t.Errorf("total = %q, want %q", got, want)
				}
			case "session_expired":
				wantState(t, res, runtime.StateBusinessOutcome, "session_expired")
			default:
				wantState(t, res, runtime.StateFailed, "")
				if res.Failure == nil || res.Failure.Reason != tc.want || res.StoppedAt != "open" {
					t.Errorf("run ended %s, want %s at open", describeResult(res), tc.want)
				}
			}
		})
	}
}

// unseen3Editor types a title, optionally saves it, then leaves for the
// documents list (by the page's link, or by a navigate action) and reads
// the title there.
func unseen3Editor(save, navigate bool) string {
	actions := `
      {"id": "title", "operation": "fill", "intent": "Type the title", "effect": "reversible", "confirmation": "none",
       "locator_candidates": [{"strategy": "label", "label": "Title", "exact": true}],
       "input": "title",
       "postcondition": {"kind": "locator_visible", "locator_candidates": [{"strategy": "label", "label": "Title", "exact": true}]}},`
	if save {
		actions += `
      {"id": "save", "operation": "click", "intent": "Save the draft", "effect": "reversible", "confirmation": "none",
       "locator_candidates": [{"strategy": "role", "role": "button", "name": "Save draft", "exact": true}],
       "postcondition": {"kind": "text_visible", "text": "Draft saved"}},`
	}
	docs := `{"kind": "locator_visible", "locator_candidates": [{"strategy": "role", "role": "heading", "name": "Documents", "exact": true}]}`
	if navigate {
		actions += `
      {"id": "leave", "operation": "navigate", "intent": "Go to the documents", "effect": "read_only", "confirmation": "none",
       "url": "/unseen3n/docs", "postcondition": ` + docs + `},`
	} else {
		actions += `
      {"id": "leave", "operation": "click", "intent": "Go back to the documents", "effect": "read_only", "confirmation": "none",
       "locator_candidates": [{"strategy": "role", "role": "link", "name": "Back to documents", "exact": true}],
       "postcondition": ` + docs + `},`
	}
	return `
  "inputs": [{"name": "title", "type": "string", "required": true, "max_length": 80}],
  "outputs": [{"name": "listed", "kind": "text", "exposure": "model_and_artifact", "required": true}],
  "milestones": [{
    "id": "write",
    "intent": "Write a document and find it in the list",
    "actions": [` + actions + `
      {"id": "read", "operation": "extract", "intent": "Read the listed title", "effect": "read_only", "confirmation": "none",
       "locator_candidates": [{"strategy": "text", "text": "{{title}}", "exact": true,
                               "scope": {"strategy": "role", "role": "list", "name": "Documents", "exact": true}}],
       "output": "listed",
       "extract": {"mode": "text"},
       "postcondition": {"kind": "output_produced", "output": "listed"}}
    ]
  }]`
}

// TestUnseen3NavLeave: a saved draft leaves the editor without a prompt
// and is listed, by the page's link or a navigate action. An unsaved one
// makes the page ask before it is left (beforeunload): the run stops
// blocked_by_unknown_modal with native_dialog, never accepting the
// prompt, and never reads the list (nothing was saved). The prompt
// stays open, so those runs use a browser of their own.
func TestUnseen3NavLeave(t *testing.T) {
	t.Parallel()
	s := sites(t)
	for _, tc := range []struct {
		name           string
		save, navigate bool
	}{
		{"saved/link", true, false},
		{"saved/navigate", true, true},
		{"dirty/link", false, false},
		{"dirty/navigate", false, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var d *Driver
			if tc.save {
				d = shared(t)
			} else {
				d = launchOwn(t)
			}
			title := "Q3 plan " + tc.name
			before := len(s.Stress.Unseen3NavDrafts())
			c := wcCapability(t, s.Stress.Origin(), "unseen3n-editor", "/unseen3n/editor", unseen3Editor(tc.save, tc.navigate))
			res := execute(t, tctx(t, 60*time.Second), d, c, map[string]any{"title": title})
			saved := s.Stress.Unseen3NavDrafts()[before:]
			if !tc.save {
				wantState(t, res, runtime.StateBlockedByUnknownModal, "")
				if res.Failure == nil || res.Failure.Reason != "native_dialog" {
					t.Errorf("failure = %+v, want native_dialog", res.Failure)
				}
				if len(saved) != 0 {
					t.Errorf("server saved %q for an unsaved draft", saved)
				}
				return
			}
			wantState(t, res, runtime.StateCompleted, "")
			if got := res.ModelOutputs["listed"]; got != title {
				t.Errorf("listed = %q, want %q", got, title)
			}
			if !reflect.DeepEqual(saved, []string{title}) {
				t.Errorf("server saved %q, want [%q]", saved, title)
			}
		})
	}
}

// unseen3Customers are the inputs and outputs of the customer searches:
// the query, and the customers listed.
const unseen3Customers = `
  "inputs": [{"name": "q", "type": "string", "required": true, "max_length": 80}],
  "outputs": [{"name": "customers", "kind": "record_set", "exposure": "model_and_artifact",
    "fields": [{"name": "name", "type": "string"}, {"name": "city", "type": "string"}]}],`

// unseen3ReadCustomers is the action that reads the customers listed.
const unseen3ReadCustomers = `
      {"id": "read", "operation": "extract", "intent": "Read the customers", "effect": "read_only", "confirmation": "none",
       "locator_candidates": [{"strategy": "role", "role": "listitem", "scope": {"strategy": "role", "role": "list", "name": "Customers", "exact": true}}],
       "output": "customers",
       "extract": {"mode": "list", "max_records": 50, "fields": [
         {"name": "name", "type": "string", "locator_candidates": [{"strategy": "css", "css": "span.name"}]},
         {"name": "city", "type": "string", "locator_candidates": [{"strategy": "css", "css": "span.city"}]}],
         "required_fields": ["name", "city"]},
       "postcondition": {"kind": "output_produced", "output": "customers"}}`

// The postconditions of a customer search: unseen3ListShown holds on any
// list (the recent customers too: the trap), unseen3ResultsShown only on
// the query's results heading.
const (
	unseen3ListShown    = `{"kind": "locator_visible", "locator_candidates": [{"strategy": "role", "role": "list", "name": "Customers", "exact": true}]}`
	unseen3ResultsShown = `{"kind": "text_visible", "text": "Results for \u201c{{q}}\u201d"}`
)

// unseen3Borgo is the answer to the query "borgo": the customers whose
// name holds it, as the read gives them.
func unseen3Borgo() []any {
	var want []any
	for _, c := range testsite.Unseen3NavCustomers() {
		if strings.Contains(strings.ToLower(c.Name), "borgo") {
			want = append(want, map[string]any{"name": c.Name, "city": c.City})
		}
	}
	return want
}

// unseen3Search types a query into the debounced search and reads the
// customers listed; typed is the fill's postcondition.
func unseen3Search(typed string) string {
	return unseen3Customers + `
  "milestones": [{
    "id": "search",
    "intent": "Search the customers",
    "actions": [
      {"id": "type", "operation": "fill", "intent": "Type the query", "effect": "read_only", "confirmation": "none",
       "locator_candidates": [{"strategy": "role", "role": "searchbox", "name": "Search customers", "exact": true},
                              {"strategy": "label", "label": "Search customers", "exact": true}],
       "input": "q",
       "postcondition": ` + typed + `},` + unseen3ReadCustomers + `
    ]
  }]`
}

// TestUnseen3NavSearch: the search is debounced 300 ms; the recent list
// shown before it may answer after the search (recent=3500, past the
// start's barrier) and the page drops it. While the search is pending the
// old list stays on screen, marked aria-busy (busy=1) or not (busy=0). The answer must be the query's
// customers, never the recent ones; the server answered the query once.
// The guarded capability proves the fill by the results heading.
//
// The naive busy=0 case was a wrong answer: the fill's input is handled
// by a 300 ms debounce timer, so the search request started after the
// fill's Settle ended, the list still showed the recent customers, the
// naive postcondition (the list is visible) held on it, and the run
// completed with the recent customers as the answer to "borgo". The
// Settle after a fill into a search field now waits for the search the
// page starts after its debounce (Driver.searchFilled).
func TestUnseen3NavSearch(t *testing.T) {
	t.Parallel()
	d := shared(t)
	s := sites(t)
	naive := unseen3ListShown
	guarded := unseen3ResultsShown
	want := unseen3Borgo()
	for _, tc := range []struct {
		name, busy, recent, post, fault string
	}{
		// The old list is marked aria-busy: the naive read of it is
		// records_incomplete or the results, never the recent customers.
		{"naive/busy=1/recent=200", "1", "200", naive, ""},
		{"naive/busy=0/recent=200", "0", "200", naive, ""},
		{"guarded/busy=0/recent=200", "0", "200", guarded, ""},
		{"guarded/busy=0/recent=3500", "0", "3500", guarded, ""},
		{"guarded/busy=1/recent=3500", "1", "3500", guarded, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			skipFault(t, tc.fault)
			before := len(s.Stress.Unseen3NavSearches())
			c := wcCapabilityQuery(t, s.Stress.Origin(), "unseen3n-search", "/unseen3n/search",
				`[{"name": "busy", "value": "`+tc.busy+`"}, {"name": "recent", "value": "`+tc.recent+`"}]`, unseen3Search(tc.post))
			res := execute(t, tctx(t, 60*time.Second), d, c, map[string]any{"q": "borgo"})
			if tc.busy == "1" && tc.post == naive && res.State != runtime.StateCompleted {
				// The busy list may be refused: records_incomplete, never
				// the recent customers as the answer.
				if res.Failure == nil || res.Failure.Reason != "records_incomplete" {
					t.Fatalf("run ended %s, want completed with the results or records_incomplete", describeResult(res))
				}
				if _, ok := res.ModelOutputs["customers"]; ok {
					t.Errorf("customers produced from a busy list: %v", res.ModelOutputs["customers"])
				}
				t.Logf("busy list: %s", describeResult(res))
				return
			}
			wantState(t, res, runtime.StateCompleted, "")
			if got := asJSON(t, res.ModelOutputs["customers"]); !reflect.DeepEqual(got, want) {
				t.Errorf("customers = %v, want %v", got, want)
			}
			if got := s.Stress.Unseen3NavSearches()[before:]; !reflect.DeepEqual(got, []string{"borgo"}) {
				t.Errorf("server was sent searches %q, want [borgo]", got)
			}
		})
	}
}

// TestUnseen3NavSearchRetry: the debounced search's request is refused
// (503) or its connection closed without an answer, and the page retries
// it after a backoff with the recent customers still on screen, under a
// postcondition that holds on any list (the naive one of
// TestUnseen3NavSearch). A completed run must answer with the query's
// customers, never the recent ones: a search whose every attempt failed,
// or whose retry came later than the waits, left the old list on screen
// for the read. Without the network gate (a remote endpoint, an https
// tunnel) the closed connection reaches the page as a network error;
// through it, as the gate's 502.
func TestUnseen3NavSearchRetry(t *testing.T) {
	t.Parallel()
	requireBrowser(t)
	s := sites(t)
	gateless, err := Launch(tctx(t, 30*time.Second), withoutGate())
	if err != nil {
		t.Fatal(err)
	}
	defer gateless.Close()
	naive := unseen3ListShown
	want := unseen3Borgo()
	for _, tc := range []struct {
		gate              bool
		fault, n, backoff string
	}{
		{true, "fail", "1", "300"},
		{true, "fail", "2", "1000"},
		{true, "fail", "5", "300"},
		{true, "drop", "1", "300"},
		{false, "drop", "1", "300"},
		{false, "drop", "2", "1000"},
		{false, "drop", "5", "300"},
	} {
		name := "gateless"
		if tc.gate {
			name = "gate"
		}
		t.Run(name+"/"+tc.fault+"="+tc.n+"/backoff="+tc.backoff, func(t *testing.T) {
			d := gateless
			if tc.gate {
				d = shared(t)
			}
			before := len(s.Stress.Unseen3NavSearches())
			c := wcCapabilityQuery(t, s.Stress.Origin(), "unseen3n-search", "/unseen3n/search",
				`[{"name": "busy", "value": "0"}, {"name": "`+tc.fault+`", "value": "`+tc.n+`"}, {"name": "backoff", "value": "`+tc.backoff+`"}]`, unseen3Search(naive))
			res := execute(t, tctx(t, 60*time.Second), d, c, map[string]any{"q": "borgo"})
			answered := s.Stress.Unseen3NavSearches()[before:]
			if tc.n == "5" {
				// Every attempt failed: the only right answer is a failed
				// run, at the search.
				for _, p := range wantFailedAt(res, "type") {
					t.Error(p)
				}
				if _, ok := res.ModelOutputs["customers"]; ok {
					t.Errorf("customers produced with every search refused: %v", res.ModelOutputs["customers"])
				}
				return
			}
			for _, p := range wantCompleted(res) {
				t.Error(p)
			}
			if got := asJSON(t, res.ModelOutputs["customers"]); res.State == runtime.StateCompleted && !reflect.DeepEqual(got, want) {
				t.Errorf("customers = %v, want %v (the search answered %q)", got, want, answered)
			}
		})
	}
}

// unseen3Live searches the live customers (a form whose events go over a
// WebSocket) and reads the customers listed; searched is the click's
// postcondition.
func unseen3Live(searched string) string {
	return unseen3Customers + `
  "milestones": [{
    "id": "search",
    "intent": "Search the customers",
    "actions": [
      {"id": "type", "operation": "fill", "intent": "Type the query", "effect": "read_only", "confirmation": "none",
       "locator_candidates": [{"strategy": "label", "label": "Search customers", "exact": true}],
       "input": "q",
       "postcondition": {"kind": "locator_visible", "locator_candidates": [{"strategy": "label", "label": "Search customers", "exact": true}]}},
      {"id": "search", "operation": "click", "intent": "Search", "effect": "read_only", "confirmation": "none",
       "locator_candidates": [{"strategy": "role", "role": "button", "name": "Search", "exact": true}],
       "postcondition": ` + searched + `},` + unseen3ReadCustomers + `
    ]
  }]`
}

// TestUnseen3NavLive: a search whose event goes to the server over a
// WebSocket and whose results come back on it (Phoenix LiveView, Blazor
// Server), no fetch or XHR involved, the recent customers staying on
// screen, unmarked, until they do. Under the postcondition that holds on
// any list, a completed run must answer with the query's customers,
// never the recent ones. A server that never answers can only be told
// by the guarded postcondition (the results heading): a failed run.
func TestUnseen3NavLive(t *testing.T) {
	t.Parallel()
	d := shared(t)
	s := sites(t)
	naive := unseen3ListShown
	guarded := unseen3ResultsShown
	want := unseen3Borgo()
	for _, tc := range []struct {
		name, query, post string
		silent            bool
	}{
		{"naive/delay=100", `[{"name": "delay", "value": "100"}]`, naive, false},
		{"naive/delay=600", `[{"name": "delay", "value": "600"}]`, naive, false},
		{"naive/delay=2000", `[{"name": "delay", "value": "2000"}]`, naive, false},
		{"guarded/delay=600", `[{"name": "delay", "value": "600"}]`, guarded, false},
		{"guarded/silent", `[{"name": "silent", "value": "1"}]`, guarded, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := len(s.Stress.Unseen3NavLiveSearches())
			c := wcCapabilityQuery(t, s.Stress.Origin(), "unseen3n-live", "/unseen3n/live", tc.query, unseen3Live(tc.post))
			res := execute(t, tctx(t, 60*time.Second), d, c, map[string]any{"q": "borgo"})
			if tc.silent {
				for _, p := range wantFailedAt(res, "search") {
					t.Error(p)
				}
				return
			}
			for _, p := range wantCompleted(res) {
				t.Error(p)
			}
			if got := asJSON(t, res.ModelOutputs["customers"]); res.State == runtime.StateCompleted && !reflect.DeepEqual(got, want) {
				t.Errorf("customers = %v, want %v", got, want)
			}
			if got := s.Stress.Unseen3NavLiveSearches()[before:]; !reflect.DeepEqual(got, []string{"borgo"}) {
				t.Errorf("server was sent searches %q, want [borgo]", got)
			}
		})
	}
}
