//go:build race

package ratelimit

// raceDetector is true when the tests run under the race detector, whose shadow memory makes
// the process's RSS meaningless as a measure of the limiter's.
const raceDetector = true
