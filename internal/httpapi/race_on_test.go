//go:build race

package httpapi

// raceEnabled is whether the race detector is on.
const raceEnabled = true
