package jobs_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"os"

	"github.com/vera-run/vera/capability"
	"github.com/vera-run/vera/runtime/browser"
	"github.com/vera-run/vera/runtime/jobs"
)

// A runner over one launched Chromium with two slots: submit a job,
// show its queue position and steps, wait for its answer. A refusal is
// a typed error with the seed's code. (Compile-only: it needs Chromium.)
func ExampleNew() {
	ctx := context.Background()
	b, err := browser.LaunchBrowser(ctx)
	if err != nil {
		log.Fatal(err)
	}
	defer b.Close()
	hooks := &jobs.Hooks{
		QueuePosition: func(id string, pos int) { fmt.Printf("%s: position %d\n", id, pos) },
		Step: func(id string, s jobs.StepProgress) {
			if s.Done {
				fmt.Printf("%s: step %d/%d %s\n", id, s.Index, s.Total, s.Status)
			}
		},
	}
	r, err := jobs.New("/var/lib/vera/jobs", b.Open, jobs.WithActiveBrowsers(2), jobs.WithHooks(hooks))
	if err != nil {
		log.Fatal(err)
	}
	defer r.Close(ctx)

	raw, err := os.ReadFile("teller.capability.json")
	if err != nil {
		log.Fatal(err)
	}
	c, err := capability.ParseBytes(raw)
	if err != nil {
		log.Fatal(err)
	}
	st, err := r.Submit(ctx, jobs.Request{Capability: c, Inputs: map[string]any{"member_id": "100234"}})
	switch {
	case errors.Is(err, jobs.ErrQueueFull), errors.Is(err, jobs.ErrArtifactCapacity):
		log.Fatalf("retry later (%s): %v", jobs.CodeOf(err), err)
	case err != nil:
		log.Fatal(err)
	}
	st, err = r.Wait(ctx, st.ID)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(st.State, st.Code, st.Outputs)
}
