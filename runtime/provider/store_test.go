package provider

import (
	"context"
	"errors"
	"fmt"
	"os"
	"sync"
	"sync/atomic"
	"testing"
)

func testStoreConcurrent(t *testing.T, s KeyStore) {
	t.Helper()
	const workers, keys = 16, 8
	var wins [keys]atomic.Int32
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := range keys {
				err := s.Claim(context.Background(), fmt.Sprintf("key-%d", k), fmt.Sprintf("sha256:worker%d", w))
				switch {
				case err == nil:
					wins[k].Add(1)
				case !errors.Is(err, ErrReplayed) || !errors.Is(err, CodeReplayed):
					t.Errorf("claim: %v", err)
				}
			}
		}()
	}
	wg.Wait()
	for k := range keys {
		if n := wins[k].Load(); n != 1 {
			t.Errorf("key-%d claimed %d times, want exactly once", k, n)
		}
	}
}

func TestMemoryStore(t *testing.T) {
	testStoreConcurrent(t, &MemoryStore{})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := (&MemoryStore{}).Claim(ctx, "k", "d"); !errors.Is(err, ErrStore) {
		t.Errorf("canceled: %v", err)
	}
}

func TestFileStore(t *testing.T) {
	dir := t.TempDir() + "/keys"
	s, err := OpenFileStore(dir)
	if err != nil {
		t.Fatal(err)
	}
	testStoreConcurrent(t, s)
	// Two stores on one directory (two processes) still claim once.
	s2, err := OpenFileStore(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := s2.Claim(context.Background(), "key-3", "sha256:other"); !errors.Is(err, ErrReplayed) {
		t.Errorf("second store: %v", err)
	}
	s.Close()
	s2.Close()
	// A restart remembers every key.
	s3, err := OpenFileStore(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer s3.Close()
	if err := s3.Claim(context.Background(), "key-0", "sha256:again"); !errors.Is(err, ErrReplayed) {
		t.Errorf("after restart: %v", err)
	}
	if err := s3.Claim(context.Background(), "sha256:0123", "d"); err != nil {
		t.Errorf("new key after restart: %v", err)
	}
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		info, err := e.Info()
		if err != nil {
			t.Fatal(err)
		}
		if info.Mode().Perm() != 0o600 {
			t.Errorf("%s mode %v, want 0600", e.Name(), info.Mode().Perm())
		}
	}
	if _, err := OpenFileStore(""); !errors.Is(err, ErrInvalidArgument) {
		t.Errorf("empty dir: %v", err)
	}
	closed, _ := OpenFileStore(t.TempDir())
	closed.Close()
	if err := closed.Claim(context.Background(), "k", "d"); !errors.Is(err, ErrStore) {
		t.Errorf("closed store: %v", err)
	}
}

// Concurrent hosts validating one receipt against one file store: exactly
// one acceptance, every other attempt a replay.
func TestValidateConcurrentReplay(t *testing.T) {
	c := composeCap(t, placeholderOrigin)
	req := draftRequest(t, c)
	gate := &GateState{GateID: "gate_example_draft_review", Revision: 4, Status: GatePending}
	raw := mustJSON(t, baseReceipt(req))
	s, err := OpenFileStore(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var accepted, replayed atomic.Int32
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, err := ValidateReceipt(context.Background(), raw, req, gate, s)
			switch {
			case err == nil:
				accepted.Add(1)
			case errors.Is(err, CodeReplayed):
				replayed.Add(1)
			default:
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	if accepted.Load() != 1 || replayed.Load() != 7 {
		t.Fatalf("accepted %d replayed %d, want 1 and 7", accepted.Load(), replayed.Load())
	}
}
