//go:build linux

package chromeproc_test

import (
	"bufio"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/vera-run/vera/internal/chromeproc"
)

// TestParentDeathKillsBrowser: a program that started a browser and was
// killed with SIGKILL (no Close ran) leaves no browser process behind:
// the kernel kills the browser with it and its helpers follow. Before,
// the browser and its crash handlers kept running with no parent.
func TestParentDeathKillsBrowser(t *testing.T) {
	requireBrowser(t)
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), envOrphanHelper+"=1", "TMPDIR="+tmp)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	killed := false
	defer func() {
		if !killed {
			_ = cmd.Process.Kill()
			_ = cmd.Wait()
		}
	}()
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatalf("helper: %v", err)
	}
	dir, ok := strings.CutPrefix(strings.TrimSpace(line), "dir: ")
	if !ok || dir == "" {
		t.Fatalf("helper said %q", line)
	}
	defer func() {
		chromeproc.KillProcesses(dir)
		_ = os.RemoveAll(dir)
	}()
	if n := chromeproc.CountProcesses(dir); n < 2 {
		t.Fatalf("CountProcesses = %d before the kill, want the browser and its helpers", n)
	}
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()
	killed = true
	deadline := time.Now().Add(15 * time.Second)
	n := chromeproc.CountProcesses(dir)
	for n > 0 && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond) // polling the process table: no event says a process of another tree ended
		n = chromeproc.CountProcesses(dir)
	}
	if n > 0 {
		t.Errorf("%d browser processes still running 15 s after their parent was killed", n)
	}
}
