package schedfile

// ParseScheduleTokens is the token walk that Read falls back to, for the
// benchmarks of package schedfile_test.
var ParseScheduleTokens = parseScheduleTokens
