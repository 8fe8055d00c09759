package ratelimit

import (
	"context"
	"fmt"
	"log/slog"
	"strings"

	"github.com/redis/go-redis/v9"
)

// LogRedisTo sends go-redis's own messages (a dial that failed, a connection a hook refused) to
// logger at WARN, in place of the lines go-redis writes to stderr with the standard log
// package ("redis: 2026/11/26 … pool.go:770: …"), so that a JSON log stays JSON. go-redis has
// one logger per process: the last call wins.
func LogRedisTo(logger *slog.Logger) { redis.SetLogger(redisLog{logger}) }

// redisLog is go-redis's Logging interface on a slog.Logger.
type redisLog struct{ logger *slog.Logger }

// Printf logs one go-redis message, without the "redis: " its messages begin with (the
// attribute says whose it is).
func (l redisLog) Printf(ctx context.Context, format string, v ...any) {
	if ctx == nil {
		ctx = context.Background()
	}
	msg := strings.TrimPrefix(fmt.Sprintf(format, v...), "redis: ")
	l.logger.LogAttrs(ctx, slog.LevelWarn, msg, slog.String("component", "go-redis"))
}
