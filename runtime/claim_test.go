package runtime_test

import (
	"context"
	"errors"
	"os"
	"reflect"
	"sync"
	"testing"

	"github.com/vera-run/vera/receipt"
	"github.com/vera-run/vera/runtime"
	"github.com/vera-run/vera/runtime/runtimetest"
)

// TestDriverBusyRefused holds one run inside its first action (a hook
// that waits) and starts a second Execute on the same fake driver: it is
// refused with ErrDriverBusy before any driver call (no Result, no run
// directory, no hook), the first run still completes with the right
// answer, and the driver is free again afterwards.
func TestDriverBusyRefused(t *testing.T) {
	c := loadCap(t, "teller.json")
	d := runtimetest.NewDriver(tellerSite())
	defer d.Close()

	entered := make(chan struct{})
	resume := make(chan struct{})
	var once sync.Once
	hooks := &runtime.Hooks{ActionStart: func(runtime.ActionStartInfo) {
		once.Do(func() { close(entered); <-resume })
	}}
	type out struct {
		res *runtime.Result
		err error
	}
	first := make(chan out, 1)
	go func() {
		res, err := runtime.Execute(context.Background(), c, tellerInputs,
			runtime.WithDriver(d), runtime.WithRunDir(t.TempDir()), runtime.WithHooks(hooks))
		first <- out{res, err}
	}()
	<-entered

	dir := t.TempDir()
	var called bool
	res, err := runtime.Execute(context.Background(), c, tellerInputs, runtime.WithDriver(d), runtime.WithRunDir(dir),
		runtime.WithHooks(&runtime.Hooks{MilestoneStart: func(runtime.MilestoneStartInfo) { called = true }}))
	if !errors.Is(err, runtime.ErrDriverBusy) || res != nil {
		t.Fatalf("second Execute = %v, %v; want nil, ErrDriverBusy", res, err)
	}
	if called {
		t.Error("the refused run called a hook")
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 0 {
		t.Errorf("the refused run left %d entries in its run folder", len(ents))
	}
	close(resume)
	o := <-first
	if o.err != nil || o.res.State != receipt.TerminalCompleted {
		t.Fatalf("first run: %v %+v", o.err, o.res)
	}
	want := map[string]any{"member_name": "Mario Rossi", "savings": "$12,480.55", "checking": "$1,204.10"}
	if got := o.res.ModelOutputs["balances"]; !reflect.DeepEqual(got, want) {
		t.Errorf("balances = %#v", got)
	}
	// Released: the next run on the same driver goes ahead.
	if res := exec(t, c, d, tellerInputs); res.State != receipt.TerminalCompleted {
		t.Errorf("run after release: %s", dump(res))
	}
}

// TestDriverBusyRefusalsAreNeverAnswers shares one fake driver between
// four goroutines running 24 flows: each either answers right or is
// refused with ErrDriverBusy.
func TestDriverBusyRefusalsAreNeverAnswers(t *testing.T) {
	c := loadCap(t, "teller.json")
	d := runtimetest.NewDriver(tellerSite())
	defer d.Close()
	want := map[string]any{"member_name": "Mario Rossi", "savings": "$12,480.55", "checking": "$1,204.10"}
	var mu sync.Mutex
	var ok, busy int
	var wg sync.WaitGroup
	jobs := make(chan int)
	for range 4 {
		wg.Go(func() {
			for range jobs {
				res, err := runtime.Execute(context.Background(), c, tellerInputs, runtime.WithDriver(d), runtime.WithRunDir(t.TempDir()))
				mu.Lock()
				switch {
				case errors.Is(err, runtime.ErrDriverBusy) && res == nil:
					busy++
				case err == nil && res.State == receipt.TerminalCompleted && reflect.DeepEqual(res.ModelOutputs["balances"], want):
					ok++
				default:
					t.Errorf("wrong answer: %v %s", err, dump(res))
				}
				mu.Unlock()
			}
		})
	}
	for i := range 24 {
		jobs <- i
	}
	close(jobs)
	wg.Wait()
	if ok == 0 || ok+busy != 24 {
		t.Errorf("ok=%d busy=%d, want 24 in all and at least one answer", ok, busy)
	}
	t.Logf("ok=%d busy=%d", ok, busy)
}

// valueDriver is a driver type that is not comparable.
type valueDriver struct {
	runtime.Driver
	_ []int
}

// TestDriverNotComparable: a driver value that cannot be claimed is
// refused with ErrInvalidArgument, never a panic.
func TestDriverNotComparable(t *testing.T) {
	c := loadCap(t, "teller.json")
	d := runtimetest.NewDriver(tellerSite())
	defer d.Close()
	_, err := runtime.Execute(context.Background(), c, tellerInputs, runtime.WithDriver(valueDriver{Driver: d}), runtime.WithRunDir(t.TempDir()))
	if !errors.Is(err, runtime.ErrInvalidArgument) {
		t.Fatalf("err = %v", err)
	}
}
