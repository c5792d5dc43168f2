package grant_test

import (
	"errors"
	"fmt"

	"github.com/vera-run/vera/runtime/grant"
)

// The administrator's ceiling from the environment (here a map standing
// in for os.LookupEnv; grant.FromEnv reads the process environment).
func ExampleParseEnv() {
	vars := map[string]string{
		grant.EnvEnabled:         "true",
		grant.EnvExecutableRoots: `["/usr/lib/chromium"]`,
		grant.EnvAllowedOrigins:  `["https://teller.example.com"]`,
	}
	c, err := grant.ParseEnv(func(k string) (string, bool) { v, ok := vars[k]; return v, ok })
	fmt.Println(c.Enabled, c.ExecutableRoots, c.AllowedOrigins, err)

	vars[grant.EnvExecutableRoots] = `["lib/chromium"]`
	_, err = grant.ParseEnv(func(k string) (string, bool) { v, ok := vars[k]; return v, ok })
	var ee *grant.EnvError
	fmt.Println(errors.As(err, &ee), ee.Var)
	// Output:
	// true [/usr/lib/chromium] [https://teller.example.com] <nil>
	// true VERA_BROWSER_EXECUTABLE_ROOTS_JSON
}

// A grant asks for one browser target, one capability and its origins;
// the ceiling refuses anything beyond it. (Ceiling.Launch and
// Ceiling.Connect make the request from a capability.)
func ExampleCeiling_Grant() {
	c := &grant.Ceiling{Enabled: true, CDPEndpoints: []string{"http://127.0.0.1:9222"}, AllowedOrigins: []string{"https://teller.example.com"}}
	req := grant.Request{
		Target:        grant.ConnectTarget("http://127.0.0.1:9222"),
		ExecutionHash: "sha256:" + fmt.Sprintf("%064x", 1),
		Origins:       []string{"https://teller.example.com"},
	}
	g, err := c.Grant(req)
	fmt.Println(g.Mode, g.NetworkClass, err)

	req.Origins = []string{"https://bank.example.com"}
	_, err = c.Grant(req)
	var xe *grant.ExceedError
	fmt.Println(errors.As(err, &xe), xe.Field)
	// Output:
	// connect public <nil>
	// true origin
}

// ClassifyHost never resolves a name.
func ExampleClassifyHost() {
	for _, h := range []string{"127.0.0.1", "10.0.0.8", "printer.local", "example.com"} {
		fmt.Println(h, grant.ClassifyHost(h))
	}
	// Output:
	// 127.0.0.1 loopback
	// 10.0.0.8 private
	// printer.local private
	// example.com public
}
