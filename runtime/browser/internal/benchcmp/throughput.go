//go:build benchcmp

package main

import (
	"context"
	"fmt"
	"os"
	"runtime/pprof"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/vera-run/vera/capability"
	"github.com/vera-run/vera/internal/chromeproc"
	"github.com/vera-run/vera/internal/testsite"
	"github.com/vera-run/vera/receipt"
	"github.com/vera-run/vera/runtime"
	"github.com/vera-run/vera/runtime/browser"
	"github.com/vera-run/vera/runtime/grant"
)

// parseLevels parses -concurrency ("1,2,4,8").
func parseLevels(s string) ([]int, error) {
	var out []int
	for _, f := range strings.Split(s, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 1 || n > 64 {
			return nil, fmt.Errorf("-concurrency: %q is not a number from 1 to 64", f)
		}
		out = append(out, n)
	}
	return out, nil
}

// batch is one side's run of many flows at one concurrency: the wall
// time from the first flow's start to the last flow's end and every
// flow's own latency (its clock as in the single-flow mode: from before
// its context exists to holding the balances).
type batch struct {
	wall   time.Duration
	lat    []time.Duration // the passed flows'
	failed int             // flows that ended without the answer (a timeout under load); a wrong answer aborts
	open   []time.Duration // Vera: NewDriver's part of each flow (context, page, gate set up)
	cpu    time.Duration   // CPU time of the side's own process (Go: this one, the test sites' servers included; Node: flow.mjs) during the batch
	bcpu   time.Duration   // CPU time of the Chromium process tree during the batch
	flows  int             // flows run, passed or not
}

// selfCPU is this process's user+system CPU time.
func selfCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// procCPU is process pid's user+system CPU time from /proc (0 when
// unreadable: not Linux).
func procCPU(pid int) time.Duration {
	st, ok := readStat(strconv.Itoa(pid))
	if !ok {
		return 0
	}
	return time.Duration(st.utime+st.stime) * time.Second / 100 // USER_HZ
}

// procStat is what the throughput mode reads of /proc/<pid>/stat, in
// clock ticks (USER_HZ, 100 on Linux).
type procStat struct {
	ppid                         int
	utime, stime, cutime, cstime int64
}

// readStat reads /proc/<pid>/stat (false when unreadable: gone, or not
// Linux). The fields after the command name, which may hold spaces and
// parentheses, are counted from its closing parenthesis.
func readStat(pid string) (procStat, bool) {
	raw, err := os.ReadFile("/proc/" + pid + "/stat")
	if err != nil {
		return procStat{}, false
	}
	s := string(raw)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return procStat{}, false
	}
	f := strings.Fields(s[i+1:])
	if len(f) < 15 {
		return procStat{}, false
	}
	n := func(k int) int64 { v, _ := strconv.ParseInt(f[k], 10, 64); return v }
	return procStat{ppid: int(n(1)), utime: n(11), stime: n(12), cutime: n(13), cstime: n(14)}, true
}

// treeCPU is the CPU time of process root and its descendants from
// /proc: user and system time of each, plus the time of the children each
// has reaped (a closed context's renderer, reaped by Chromium's zygote,
// counts there once it is gone). 0 when unreadable (not Linux).
func treeCPU(root int) time.Duration {
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return 0
	}
	type proc struct {
		ppid int
		cpu  int64
	}
	procs := map[int]proc{}
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		st, ok := readStat(e.Name())
		if !ok {
			continue
		}
		procs[pid] = proc{st.ppid, st.utime + st.stime + st.cutime + st.cstime}
	}
	var total int64
	for pid, p := range procs {
		for q, hops := pid, 0; q > 1 && hops < 64; hops++ {
			if q == root {
				total += p.cpu
				break
			}
			parent, ok := procs[q]
			if !ok {
				break
			}
			q = parent.ppid
		}
	}
	return time.Duration(total) * time.Second / 100 // USER_HZ
}

// perSecond counts passed flows only.
func (b batch) perSecond() float64 { return float64(len(b.lat)) / b.wall.Seconds() }

// pct is the p-th percentile (nearest rank) of ds.
func pct(ds []time.Duration, p float64) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	if len(s) == 0 {
		return 0
	}
	i := int(p/100*float64(len(s))+0.999999) - 1
	return s[min(max(i, 0), len(s)-1)]
}

// members are the flows' members, rotating, so every answer is checked
// against its own member.
func flowMember(i int) testsite.Member {
	return testsite.TellerMembers[i%len(testsite.TellerMembers)]
}

// throughput runs the teller flow flows times at each concurrency on one
// Chromium: through one browser.Browser connected to it (runtime.Execute,
// a fresh driver and browser context per flow, c goroutines), and
// through playwright-core's connectOverCDP on the same browser (c async
// workers in one Node process, a fresh context per flow). The sides
// alternate which goes first at each level. Every answer is checked.
func throughput(levels []int, flows, reps int, spare bool, pwDir, cpuProfile string) error {
	sites, err := testsite.Start()
	if err != nil {
		return err
	}
	defer sites.Close()
	ext, err := chromeproc.Start(context.Background())
	if err != nil {
		return err
	}
	defer ext.Close()
	c, err := capability.ParseBytes(tellerJSON)
	if err != nil {
		return err
	}
	c.Site.AllowedOrigins = []string{sites.Teller.Origin()}
	runDir, err := os.MkdirTemp("", "benchcmp-runs-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(runDir)
	ctx := context.Background()
	g, err := grant.Local(c, grant.ConnectTarget(ext.HTTPEndpoint()))
	if err != nil {
		return err
	}
	b, err := browser.ConnectBrowser(ctx, ext.HTTPEndpoint(), browser.WithGrant(g), browser.WithSpare(spare))
	if err != nil {
		return err
	}
	defer b.Close()
	pw, err := startPlaywright(pwDir, ext.HTTPEndpoint())
	if err != nil {
		if skip, ok := err.(*errSkip); ok {
			fmt.Printf("playwright-core side skipped: %s\n", skip.why)
			pw = nil
		} else {
			return err
		}
	} else {
		defer pw.close()
	}

	vera := func(n, conc int) (batch, error) {
		lat := make([]time.Duration, n)
		opens := make([]time.Duration, n)
		errs := make([]error, n)
		next := make(chan int)
		var wg sync.WaitGroup
		cpu0, b0 := selfCPU(), treeCPU(ext.Pid())
		start := time.Now()
		for range conc {
			wg.Go(func() {
				for i := range next {
					m := flowMember(i)
					t0 := time.Now()
					d, err := b.NewDriver(ctx)
					opens[i] = time.Since(t0)
					if err != nil {
						errs[i] = err
						continue
					}
					res, err := runtime.Execute(ctx, c, map[string]any{"username": username, "password": password, "member_id": m.ID},
						runtime.WithDriver(d), runtime.WithRunDir(runDir), runtime.WithAllowGitWorkTree())
					lat[i] = time.Since(t0)
					_ = d.Close()
					switch {
					case err != nil:
						errs[i] = err
					case res.State != receipt.TerminalCompleted:
						errs[i] = fmt.Errorf("execute: member %s: state %s %+v", m.ID, res.State, res.Failure)
					default:
						bal, _ := res.ModelOutputs["balances"].(map[string]any)
						if fmt.Sprint(bal["savings"]) != m.Savings || fmt.Sprint(bal["member_name"]) != m.Name || fmt.Sprint(bal["checking"]) != m.Checking {
							errs[i] = fmt.Errorf("execute: member %s: WRONG answer %v", m.ID, bal)
						}
					}
				}
			})
		}
		for i := range n {
			next <- i
		}
		close(next)
		wg.Wait()
		wall := time.Since(start)
		out := batch{wall: wall, open: opens, cpu: selfCPU() - cpu0, bcpu: treeCPU(ext.Pid()) - b0, flows: n}
		for i, e := range errs {
			switch {
			case e == nil:
				out.lat = append(out.lat, lat[i])
			case strings.Contains(e.Error(), "WRONG"):
				return batch{}, e
			default:
				out.failed++
				fmt.Fprintf(os.Stderr, "  vera flow %d failed: %v\n", i, e)
			}
		}
		return out, nil
	}
	play := func(n, conc int) (batch, error) {
		ids := make([]string, n)
		for i := range n {
			ids[i] = flowMember(i).ID
		}
		cpu0, b0 := procCPU(pw.cmd.Process.Pid), treeCPU(ext.Pid())
		a, err := pw.askBatch(map[string]any{"op": "batch", "base": sites.Teller.URL(), "username": username, "password": password,
			"member_ids": ids, "concurrency": conc})
		if err != nil {
			return batch{}, err
		}
		if len(a.Flows) != n {
			return batch{}, fmt.Errorf("playwright: %d answers for %d flows", len(a.Flows), n)
		}
		out := batch{wall: ms(a.WallMS), cpu: procCPU(pw.cmd.Process.Pid) - cpu0, bcpu: treeCPU(ext.Pid()) - b0, flows: n}
		for i, f := range a.Flows {
			m := flowMember(i)
			switch {
			case f.Error != "":
				out.failed++
				fmt.Fprintf(os.Stderr, "  playwright flow %d failed: %s\n", i, f.Error)
			case f.Savings != m.Savings || f.Name != m.Name || f.Checking != m.Checking:
				return batch{}, fmt.Errorf("playwright: member %s: WRONG answer %+v", m.ID, f)
			default:
				out.lat = append(out.lat, ms(f.MS))
			}
		}
		return out, nil
	}

	// Warm both sides (connections, caches, the Node JIT).
	if _, err := vera(2, 2); err != nil {
		return err
	}
	if pw != nil {
		if _, err := play(2, 2); err != nil {
			return err
		}
	}
	if cpuProfile != "" {
		f, err := os.Create(cpuProfile)
		if err != nil {
			return err
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			return err
		}
		defer pprof.StopCPUProfile()
	}
	fmt.Printf("teller flow throughput on one Chromium: %d flows per level, %d repetitions (sides alternate)\n", flows, reps)
	fmt.Printf("  %-5s | %-34s | %-34s | %s\n", "conc", "Vera flows/s  p50  p95  failed", "playwright flows/s  p50  p95  failed", "ratio flows/s, p95 (Vera/pw)")
	for _, conc := range levels {
		var vb, pb batch
		for r := range reps {
			order := []bool{true, false}
			if (r+conc)%2 == 1 {
				order = []bool{false, true}
			}
			for _, isVera := range order {
				if !isVera && pw == nil {
					continue
				}
				var x batch
				var err error
				if isVera {
					x, err = vera(flows, conc)
				} else {
					x, err = play(flows, conc)
				}
				if err != nil {
					return fmt.Errorf("concurrency %d: %w", conc, err)
				}
				dst := &vb
				if !isVera {
					dst = &pb
				}
				dst.wall += x.wall
				dst.lat = append(dst.lat, x.lat...)
				dst.failed += x.failed
				dst.open = append(dst.open, x.open...)
				dst.cpu += x.cpu
				dst.bcpu += x.bcpu
				dst.flows += x.flows
			}
		}
		line := fmt.Sprintf("  %-5d | %8.2f %7v %7v %3d", conc, vb.perSecond(), pct(vb.lat, 50).Round(time.Millisecond), pct(vb.lat, 95).Round(time.Millisecond), vb.failed)
		if pw != nil {
			line += fmt.Sprintf(" | %8.2f %7v %7v %3d | %.2f, %.2f", pb.perSecond(), pct(pb.lat, 50).Round(time.Millisecond), pct(pb.lat, 95).Round(time.Millisecond), pb.failed,
				vb.perSecond()/pb.perSecond(), float64(pct(vb.lat, 95))/float64(pct(pb.lat, 95)))
		}
		fmt.Println(line)
		fmt.Printf("          Vera NewDriver share: p50 %v p95 %v; client CPU per flow: Vera (Go) %v",
			pct(vb.open, 50).Round(time.Millisecond), pct(vb.open, 95).Round(time.Millisecond), (vb.cpu / time.Duration(max(vb.flows, 1))).Round(time.Millisecond))
		if pw != nil {
			fmt.Printf(", playwright (Node) %v", (pb.cpu / time.Duration(max(pb.flows, 1))).Round(time.Millisecond))
		}
		fmt.Printf("; Chromium CPU per flow: Vera %v", (vb.bcpu / time.Duration(max(vb.flows, 1))).Round(time.Millisecond))
		if pw != nil {
			fmt.Printf(", playwright %v", (pb.bcpu / time.Duration(max(pb.flows, 1))).Round(time.Millisecond))
		}
		fmt.Println()
	}
	fmt.Println("  goal: flows/s ratio >= 1.00 and p95 ratio <= 1.00 at every level")
	return nil
}
