package browser

import (
	"context"
	"fmt"
	"log/slog"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/vera-run/vera/capability"
	"github.com/vera-run/vera/internal/testsite"
	"github.com/vera-run/vera/runtime"
)

// TestStressUnseen3: the four wrong answers found on pages the code had
// never seen, repeated under load: a route whose code-split chunk loads
// before its data fetch (the old account read as the next one), an
// optimistic save answered 503 and retried by the page after a backoff
// (a completed run with nothing stored), one whose every attempt is
// refused (the same), one whose first connection is closed unanswered
// (the gate's 502), a search debounced 300 ms whose
// old list is not marked busy (the recent customers read as the
// results), the same search refused once or on every attempt (the
// recent customers read as the results when no attempt succeeded), and
// a form frame the page remounts 300 ms after each
// submission (the first reference read as the second). Each run must be right or fail safely; a misreport logs the
// iteration's driver log.
func TestStressUnseen3(t *testing.T) {
	n := stressIterations(t)
	s := sites(t)
	logs := &iterLog{}
	d := stressLaunch(t, WithLogger(slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))))
	st := s.Stress
	origin := st.Origin()
	accounts := testsite.Unseen3NavCRM()
	first, second := accounts[0], accounts[1]
	naive := `{"kind": "url_includes", "value": "/accounts/"}`
	phone := "+39 06 555 0199"
	expense := map[string]any{"desc1": "Taxi to client", "amount1": "42.50", "desc2": "Hotel Milano", "amount2": "180.00"}
	borgo := unseen3Borgo()
	type scenario struct {
		name   string
		c      *capability.Capability
		inputs map[string]any
		mark   func() int
		// check returns the run's problems given the server's records
		// from mark.
		check func(res *runtime.Result, from int) []string
	}
	// profile is the optimistic profile save with the server's fault
	// (fail or drop) on its first n attempts; refused: on all of them.
	profile := func(name, fault, n string, refused bool) scenario {
		return scenario{name, wcCapabilityQuery(t, origin, "unseen3n-profile", "/unseen3n/profile",
			`[{"name": "`+fault+`", "value": "`+n+`"}, {"name": "backoff", "value": "300"}, {"name": "optimistic", "value": "1"}]`,
			unseen3Profile(`{"kind": "text_visible", "text": "{{phone}}"}`)),
			map[string]any{"phone": phone},
			func() int { return len(st.Unseen3NavPhones()) },
			func(res *runtime.Result, from int) []string {
				return unseen3ProfileJudge(res, st.Unseen3NavPhones()[from:], phone, refused)
			}}
	}
	// search is the debounced search whose old list is not marked busy,
	// under the postcondition that holds on any list, with the server's
	// fault on the first n attempts of the search (none: n "0"); refused:
	// on all of them.
	search := func(name, fault, n string, refused bool) scenario {
		return scenario{name, wcCapabilityQuery(t, origin, "unseen3n-search", "/unseen3n/search",
			`[{"name": "busy", "value": "0"}, {"name": "recent", "value": "200"}, {"name": "`+fault+`", "value": "`+n+`"}, {"name": "backoff", "value": "300"}]`,
			unseen3Search(unseen3ListShown)),
			map[string]any{"q": "borgo"},
			func() int { return len(st.Unseen3NavSearches()) },
			func(res *runtime.Result, from int) []string {
				answered := st.Unseen3NavSearches()[from:]
				if refused {
					p := wantFailedAt(res, "type")
					if _, ok := res.ModelOutputs["customers"]; ok {
						p = append(p, fmt.Sprintf("customers produced with every search refused: %v", res.ModelOutputs["customers"]))
					}
					return p
				}
				p := wantCompleted(res)
				if res.State != runtime.StateCompleted {
					return p
				}
				if got := asJSON(t, res.ModelOutputs["customers"]); !reflect.DeepEqual(got, borgo) {
					p = append(p, fmt.Sprintf("customers = %v, want %v", got, borgo))
				}
				if !slices.Equal(answered, []string{"borgo"}) {
					p = append(p, fmt.Sprintf("server answered searches %q", answered))
				}
				return p
			}}
	}
	for _, sc := range []scenario{
		{"unseen3n-crm-chunk", wcCapabilityQuery(t, origin, "unseen3n-crm", "/unseen3n/crm",
			`[{"name": "defer", "value": "chunk"}, {"name": "delay", "value": "1500"}]`, unseen3CRM(naive, naive, false)),
			map[string]any{"customer": first.Name},
			func() int { return len(st.Unseen3NavAccountReads()) },
			func(res *runtime.Result, from int) []string {
				p := wantCompleted(res)
				if res.State != runtime.StateCompleted {
					return p
				}
				for _, o := range []struct {
					name string
					want testsite.Unseen3NavCRMAccount
				}{{"first", first}, {"second", second}} {
					if got := asJSON(t, res.ModelOutputs[o.name]); !reflect.DeepEqual(got, unseen3CRMWant(o.want)) {
						p = append(p, fmt.Sprintf("%s = %v, want %v", o.name, got, unseen3CRMWant(o.want)))
					}
				}
				if got := st.Unseen3NavAccountReads()[from:]; !slices.Equal(got, []string{first.ID, second.ID}) {
					p = append(p, fmt.Sprintf("server answered %v", got))
				}
				return p
			}},
		profile("unseen3n-profile-optimistic-retry", "fail", "1", false),
		profile("unseen3n-profile-optimistic-refused", "fail", "5", true),
		profile("unseen3n-profile-optimistic-dropped", "drop", "1", false),
		search("unseen3n-search-debounced", "fail", "0", false),
		search("unseen3n-search-retry", "fail", "1", false),
		search("unseen3n-search-refused", "fail", "5", true),
		{"unseen3n-live-search", wcCapabilityQuery(t, origin, "unseen3n-live", "/unseen3n/live",
			`[{"name": "delay", "value": "600"}]`,
			unseen3Live(unseen3ListShown)),
			map[string]any{"q": "borgo"},
			func() int { return len(st.Unseen3NavLiveSearches()) },
			func(res *runtime.Result, from int) []string {
				p := wantCompleted(res)
				if res.State != runtime.StateCompleted {
					return p
				}
				if got := asJSON(t, res.ModelOutputs["customers"]); !reflect.DeepEqual(got, borgo) {
					p = append(p, fmt.Sprintf("customers = %v, want %v", got, borgo))
				}
				if got := st.Unseen3NavLiveSearches()[from:]; !slices.Equal(got, []string{"borgo"}) {
					p = append(p, fmt.Sprintf("server was sent searches %q", got))
				}
				return p
			}},
		{"unseen2-frame-remount", wcCapabilityQuery(t, origin, "unseen2-frame", "/unseen2/frame",
			`[{"name": "remount", "value": "300"}]`, unseen2Expense()),
			expense,
			func() int { return len(st.Unseen2Expenses()) },
			func(res *runtime.Result, from int) []string {
				got := st.Unseen2Expenses()[from:]
				if res.State == runtime.StateCompleted {
					if len(got) != 2 || res.ModelOutputs["ref1"] != got[0].Ref || res.ModelOutputs["ref2"] != got[1].Ref {
						return []string{fmt.Sprintf("completed with refs %v %v, server received %+v", res.ModelOutputs["ref1"], res.ModelOutputs["ref2"], got)}
					}
					return nil
				}
				// Where the remount lands is timing: the safe failures are
				// at the second submit, with its submission refused or
				// aborted (one received) or sent before the remount
				// dropped the frame that was to show its answer (two:
				// the outcome was unknown to the page, so the run failed).
				if res.StoppedAt != "submit-2" || len(got) < 1 || len(got) > 2 || res.ModelOutputs["ref2"] != nil {
					return []string{fmt.Sprintf("failed at %s with %d submissions received, ref2 %v", res.StoppedAt, len(got), res.ModelOutputs["ref2"])}
				}
				return nil
			}},
	} {
		t.Run(sc.name, func(t *testing.T) {
			y := &tally{t: t, name: sc.name}
			for i := 0; i < n; i++ {
				logs.reset()
				from := sc.mark()
				ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
				res, p := stressRun(t, ctx, d, sc.c, sc.inputs)
				cancel()
				if res != nil {
					p = append(p, sc.check(res, from)...)
				}
				if len(p) > 0 {
					t.Logf("%s iteration %d driver log:\n%s", sc.name, i, logs.String())
				}
				y.judge(i, res, p)
			}
			y.done()
		})
	}
}
