package livetest

import (
	"context"
	"errors"
	"os"
	"testing"
	"time"

	"github.com/vera-run/vera/internal/testmain"
)

// TestMain fails the binary when a Chromium the helpers started outlives
// the tests (the helpers' cleanups must end every one).
func TestMain(m *testing.M) { os.Exit(testmain.Run(m, "vlt-")) }

// TestVictimWithoutRun: a call on another node is not chosen and returns
// at once; with no run chosen by the deadline, Kill kills nothing, says
// so, and a run arriving later is not held.
func TestVictimWithoutRun(t *testing.T) {
	g := &Grid{Nodes: []Node{{Name: "node-0"}, {Name: "node-1"}}}
	v := g.Victim(1)
	if v.Node() != "node-1" {
		t.Fatalf("node %q", v.Node())
	}
	v.At("a", "node-0")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if id, err := v.Kill(ctx); id != "" || !errors.Is(err, context.Canceled) {
		t.Fatalf("Kill without a run = %q, %v", id, err)
	}
	done := make(chan struct{})
	go func() { v.At("b", "node-1"); close(done) }()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("a run arriving after Kill gave up is held")
	}
}

// TestGridKill: a two-node grid in real Chromium; the first run on
// node-1 is held while node-1's Chromium is killed, node-0 lives on and
// its Browser still opens drivers; later runs on node-1 are not held.
// TestMain checks that the cleanups ended both Chromium processes.
func TestGridKill(t *testing.T) {
	g := StartGrid(t, 2)
	if len(g.Nodes) != 2 || g.Nodes[0].Name != "node-0" || g.Nodes[1].Name != "node-1" {
		t.Fatalf("nodes %+v", g.Nodes)
	}
	v := g.Victim(1)
	released := make(chan string, 2)
	for _, id := range []string{"x", "y"} {
		go func() {
			v.At(id, "node-1")
			released <- id
		}()
	}
	// One of the two is chosen and held; the other returns at once.
	var free string
	select {
	case free = <-released:
	case <-time.After(time.Minute):
		t.Fatal("neither run returned")
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	id, err := v.Kill(ctx)
	if err != nil || id == "" || id == free {
		t.Fatalf("Kill = %q, %v (the free run was %q)", id, err, free)
	}
	select {
	case <-g.Nodes[1].Process.Done():
	default:
		t.Error("node-1 still running after Kill")
	}
	if got := <-released; got != id {
		t.Errorf("released %q, want %q", got, id)
	}
	if !g.Nodes[0].Process.Alive() {
		t.Fatal("node-0 died with node-1")
	}
	d, err := g.Nodes[0].Browser.Open(ctx)
	if err != nil {
		t.Fatalf("node-0 after the kill: %v", err)
	}
	d.Close()
}
