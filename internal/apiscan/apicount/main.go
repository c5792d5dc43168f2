// Command apicount prints the number of exported identifiers of each of
// the module's public packages, from the listings of internal/apiscan.
// Run it from the module root:
//
//	go run ./internal/apiscan/apicount
//
// Identifiers are exported constants, variables, functions, types and
// methods; struct fields and interface methods are counted separately as
// members.
package main

import (
	"fmt"
	"os"

	"github.com/vera-run/vera/internal/apiscan"
)

func main() {
	var ti, tm int
	for _, p := range apiscan.Public {
		lines, err := apiscan.Scan(p, p)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		i, m := apiscan.Identifiers(lines)
		ti, tm = ti+i, tm+m
		fmt.Printf("%-22s %5d identifiers %5d members\n", p, i, m)
	}
	fmt.Printf("%-22s %5d identifiers %5d members\n", "total", ti, tm)
}
