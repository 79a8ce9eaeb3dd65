import CFuzzDriver

// SwiftPM links an executable's main under its own name, so libFuzzer's main (which calls
// LLVMFuzzerTestOneInput) is not the one that runs: this one hands libFuzzer the command line (its
// options, e.g. -max_total_time=60, and corpus folders) and the function to call with each input.
headway_fuzz(CommandLine.argc, CommandLine.unsafeArgv) { data, size in fuzzToolProgress(data, size) }
