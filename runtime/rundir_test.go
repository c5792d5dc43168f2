package runtime_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	goruntime "runtime"
	"strings"
	"sync"
	"testing"

	"github.com/vera-run/vera/locator"
	"github.com/vera-run/vera/receipt"
	"github.com/vera-run/vera/runtime"
	"github.com/vera-run/vera/runtime/runtimetest"
)

// recordingDriver wraps a driver and records every method called on it,
// Info included, so a test can assert that a refused run never reached
// the driver.
type recordingDriver struct {
	inner runtime.Driver
	mu    sync.Mutex
	calls []string
}

func (d *recordingDriver) rec(m string) {
	d.mu.Lock()
	d.calls = append(d.calls, m)
	d.mu.Unlock()
}

func (d *recordingDriver) Calls() []string {
	d.mu.Lock()
	defer d.mu.Unlock()
	return append([]string(nil), d.calls...)
}

func (d *recordingDriver) Info() runtime.DriverInfo { d.rec("Info"); return d.inner.Info() }
func (d *recordingDriver) RestrictOrigins(ctx context.Context, s runtime.OriginScope) error {
	d.rec("RestrictOrigins")
	return d.inner.RestrictOrigins(ctx, s)
}
func (d *recordingDriver) Violations(ctx context.Context) ([]runtime.Violation, error) {
	d.rec("Violations")
	return d.inner.Violations(ctx)
}
func (d *recordingDriver) Settle(ctx context.Context) error {
	d.rec("Settle")
	return d.inner.Settle(ctx)
}
func (d *recordingDriver) Navigate(ctx context.Context, url string) error {
	d.rec("Navigate")
	return d.inner.Navigate(ctx, url)
}
func (d *recordingDriver) URL(ctx context.Context) (string, error) {
	d.rec("URL")
	return d.inner.URL(ctx)
}
func (d *recordingDriver) FrameURL(ctx context.Context, s runtime.Scope) (string, error) {
	d.rec("FrameURL")
	return d.inner.FrameURL(ctx, s)
}
func (d *recordingDriver) Frame(ctx context.Context, sel []string) (runtime.Scope, []runtime.FrameInfo, error) {
	d.rec("Frame")
	return d.inner.Frame(ctx, sel)
}
func (d *recordingDriver) Find(ctx context.Context, s runtime.Scope, root runtime.Element, c locator.Candidate) ([]runtime.Element, error) {
	d.rec("Find")
	return d.inner.Find(ctx, s, root, c)
}
func (d *recordingDriver) Act(ctx context.Context, el runtime.Element, a runtime.Act) error {
	d.rec("Act")
	return d.inner.Act(ctx, el, a)
}
func (d *recordingDriver) Read(ctx context.Context, el runtime.Element, r runtime.Read) (string, error) {
	d.rec("Read")
	return d.inner.Read(ctx, el, r)
}
func (d *recordingDriver) Visible(ctx context.Context, el runtime.Element) (bool, error) {
	d.rec("Visible")
	return d.inner.Visible(ctx, el)
}
func (d *recordingDriver) ArmDownload(ctx context.Context) (runtime.PendingDownload, error) {
	d.rec("ArmDownload")
	return d.inner.ArmDownload(ctx)
}
func (d *recordingDriver) Close() error { d.rec("Close"); return d.inner.Close() }

// tree lists every path under dir (relative), to show nothing was left.
func tree(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(dir, func(p string, _ os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		out = append(out, rel)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestRunDirRefusedBeforeDriver: every run folder that cannot take the
// evidence is refused with ErrRunDir and the check's name, before the
// driver (Info included) or the approver is called, and nothing is left
// behind in the test's folder.
func TestRunDirRefusedBeforeDriver(t *testing.T) {
	tests := []struct {
		name  string
		setup func(t *testing.T, base string) string // returns the run folder
		check receipt.RunDirCheck
	}{
		{"git work tree, missing folder", func(t *testing.T, base string) string {
			mkdir(t, filepath.Join(base, "repo", ".git"))
			return filepath.Join(base, "repo", "evidence", "runs")
		}, receipt.RunDirGitWorkTree},
		{"git work tree, existing folder", func(t *testing.T, base string) string {
			mkdir(t, filepath.Join(base, "repo", ".git"))
			mkdir(t, filepath.Join(base, "repo", "runs"))
			return filepath.Join(base, "repo", "runs")
		}, receipt.RunDirGitWorkTree},
		{"git file of a linked work tree", func(t *testing.T, base string) string {
			mkdir(t, filepath.Join(base, "wt"))
			writeFile(t, filepath.Join(base, "wt", ".git"), "gitdir: /elsewhere\n")
			return filepath.Join(base, "wt", "runs")
		}, receipt.RunDirGitWorkTree},
		{"git work tree behind a link to a directory", func(t *testing.T, base string) string {
			mkdir(t, filepath.Join(base, "repo", ".git"))
			symlink(t, filepath.Join(base, "repo"), filepath.Join(base, "link"))
			return filepath.Join(base, "link", "runs")
		}, receipt.RunDirGitWorkTree},
		{"dangling symlink as the folder", func(t *testing.T, base string) string {
			symlink(t, filepath.Join(base, "nowhere"), filepath.Join(base, "runs"))
			return filepath.Join(base, "runs")
		}, receipt.RunDirSymlink},
		{"dangling symlink as an ancestor", func(t *testing.T, base string) string {
			symlink(t, filepath.Join(base, "nowhere"), filepath.Join(base, "link"))
			return filepath.Join(base, "link", "a", "runs")
		}, receipt.RunDirSymlink},
		{"symlink to a directory as the folder", func(t *testing.T, base string) string {
			mkdir(t, filepath.Join(base, "real"))
			symlink(t, filepath.Join(base, "real"), filepath.Join(base, "runs"))
			return filepath.Join(base, "runs")
		}, receipt.RunDirSymlink},
		{"regular file as the folder", func(t *testing.T, base string) string {
			writeFile(t, filepath.Join(base, "runs"), "")
			return filepath.Join(base, "runs")
		}, receipt.RunDirNotDirectory},
		{"regular file as an ancestor", func(t *testing.T, base string) string {
			writeFile(t, filepath.Join(base, "file"), "x")
			return filepath.Join(base, "file", "runs")
		}, receipt.RunDirNotDirectory},
		{"symlink to a file as an ancestor", func(t *testing.T, base string) string {
			writeFile(t, filepath.Join(base, "file"), "x")
			symlink(t, filepath.Join(base, "file"), filepath.Join(base, "link"))
			return filepath.Join(base, "link", "runs")
		}, receipt.RunDirNotDirectory},
		{"no write permission", func(t *testing.T, base string) string {
			if os.Geteuid() == 0 || goruntime.GOOS == "windows" {
				t.Skip("permission bits do not bind root (or Windows)")
			}
			ro := filepath.Join(base, "ro")
			mkdir(t, ro)
			if err := os.Chmod(ro, 0o500); err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { _ = os.Chmod(ro, 0o700) })
			return filepath.Join(ro, "runs")
		}, receipt.RunDirPermission},
	}
	c := loadCap(t, "teller.json")
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			base := t.TempDir()
			runs := tt.setup(t, base)
			before := tree(t, base)
			inner := runtimetest.NewDriver(tellerSite())
			defer inner.Close()
			d := &recordingDriver{inner: inner}
			asked := 0
			approver := runtime.ApproverFunc(func(context.Context, runtime.ApprovalRequest) (runtime.Approval, error) {
				asked++
				return runtime.Approval{}, errors.New("not expected")
			})
			hooked := 0
			hooks := &runtime.Hooks{MilestoneStart: func(runtime.MilestoneStartInfo) { hooked++ }}
			res, err := runtime.Execute(t.Context(), c, tellerInputs, runtime.WithDriver(d),
				runtime.WithRunDir(runs), runtime.WithApprover(approver), runtime.WithHooks(hooks))
			if res != nil || !errors.Is(err, runtime.ErrRunDir) || errors.Is(err, runtime.ErrEvidence) {
				t.Fatalf("res %v err %v, want nil and ErrRunDir", res, err)
			}
			var rde *receipt.RunDirError
			if !errors.As(err, &rde) || rde.Check != tt.check || !errors.Is(err, receipt.ErrRunDir) {
				t.Fatalf("err %v (%#v), want check %s", err, rde, tt.check)
			}
			if !strings.Contains(err.Error(), string(tt.check)) {
				t.Errorf("the message does not name the check: %v", err)
			}
			if calls := d.Calls(); len(calls) != 0 || asked != 0 || hooked != 0 {
				t.Errorf("driver calls %v, approver asked %d, hooks %d: want none", calls, asked, hooked)
			}
			if after := tree(t, base); strings.Join(after, "\n") != strings.Join(before, "\n") {
				t.Errorf("left behind: before %v after %v", before, after)
			}
		})
	}
}

// TestRunDirReserveFailure: a folder whose creation fails (procfs refuses
// new entries, even to root) is refused with the reserve check and no
// driver call.
func TestRunDirReserveFailure(t *testing.T) {
	if goruntime.GOOS != "linux" {
		t.Skip("uses /proc")
	}
	inner := runtimetest.NewDriver(tellerSite())
	defer inner.Close()
	d := &recordingDriver{inner: inner}
	_, err := runtime.Execute(t.Context(), loadCap(t, "teller.json"), tellerInputs,
		runtime.WithDriver(d), runtime.WithRunDir("/proc/vera-runs-test/runs"))
	var rde *receipt.RunDirError
	if !errors.As(err, &rde) || rde.Check != receipt.RunDirReserve || !errors.Is(err, runtime.ErrRunDir) {
		t.Fatalf("err %v, want the reserve check", err)
	}
	if calls := d.Calls(); len(calls) != 0 {
		t.Errorf("driver calls %v", calls)
	}
}

// TestRunDirAllowedAndReserved: the Git opt-out still works, missing
// folders are created, and the evidence lands in the one run directory
// reserved before the run (it already exists when the first milestone
// starts).
func TestRunDirAllowedAndReserved(t *testing.T) {
	base := t.TempDir()
	mkdir(t, filepath.Join(base, "repo", ".git"))
	runs := filepath.Join(base, "repo", "a", "runs")
	c := loadCap(t, "teller.json")
	d := runtimetest.NewDriver(tellerSite())
	defer d.Close()
	var during []string
	hooks := &runtime.Hooks{MilestoneStart: func(i runtime.MilestoneStartInfo) {
		if during == nil {
			es, _ := os.ReadDir(runs)
			for _, e := range es {
				during = append(during, e.Name())
			}
		}
	}}
	res, err := runtime.Execute(t.Context(), c, tellerInputs, runtime.WithDriver(d), runtime.WithRunDir(runs),
		runtime.WithAllowGitWorkTree(), runtime.WithHooks(hooks))
	if err != nil || !res.Clean || res.RunDir == "" {
		t.Fatalf("res %v err %v", res, err)
	}
	if len(during) != 1 || filepath.Join(runs, during[0]) != res.RunDir {
		t.Fatalf("reserved during the run %v, evidence in %s", during, res.RunDir)
	}
	if filepath.Base(res.RunDir) != res.RunID {
		t.Fatalf("run folder %s is not named after the run id %s", filepath.Base(res.RunDir), res.RunID)
	}
	if _, err := receipt.VerifyRun(context.Background(), res.RunDir, c); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(runs)
	if err != nil || fi.Mode().Perm() != 0o700 {
		t.Fatalf("created folder: %v %v", fi, err)
	}
}

// TestEvidenceFailsAtEnd: when the reserved run directory is replaced
// during the run, the evidence cannot be written; Execute returns the
// Result with ErrEvidence, never Clean, with no RunDir, and leaves the
// replacement alone.
func TestEvidenceFailsAtEnd(t *testing.T) {
	runs := t.TempDir()
	c := loadCap(t, "teller.json")
	d := runtimetest.NewDriver(tellerSite())
	defer d.Close()
	var reserved string
	hooks := &runtime.Hooks{MilestoneStart: func(runtime.MilestoneStartInfo) {
		if reserved != "" {
			return
		}
		es, err := os.ReadDir(runs)
		if err != nil || len(es) != 1 {
			t.Errorf("reserved entries %v %v", es, err)
			return
		}
		reserved = filepath.Join(runs, es[0].Name())
		if err := os.Remove(reserved); err != nil {
			t.Error(err)
		}
		writeFile(t, reserved, "not a directory")
	}}
	res, err := runtime.Execute(t.Context(), c, tellerInputs, runtime.WithDriver(d), runtime.WithRunDir(runs), runtime.WithHooks(hooks))
	if !errors.Is(err, runtime.ErrEvidence) || errors.Is(err, runtime.ErrRunDir) || res == nil {
		t.Fatalf("res %v err %v", res, err)
	}
	if res.State != receipt.TerminalCompleted || res.Clean || res.RunDir != "" || res.ReceiptHash != "" {
		t.Fatalf("state %s clean %v dir %q hash %q", res.State, res.Clean, res.RunDir, res.ReceiptHash)
	}
	if b, err := os.ReadFile(reserved); err != nil || string(b) != "not a directory" {
		t.Errorf("the replacement was touched: %q %v", b, err)
	}
}

func mkdir(t *testing.T, p string) {
	t.Helper()
	if err := os.MkdirAll(p, 0o700); err != nil {
		t.Fatal(err)
	}
}

func writeFile(t *testing.T, p, s string) {
	t.Helper()
	if err := os.WriteFile(p, []byte(s), 0o600); err != nil {
		t.Fatal(err)
	}
}

func symlink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.Symlink(target, link); err != nil {
		t.Skipf("symlinks unavailable: %v", err)
	}
}
