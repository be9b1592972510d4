#pragma once

#include <CLI/CLI.hpp>

namespace gk::cli {

// Each registers its subcommand (or, for run, the root command's options); the
// callback stores the process exit code in *exit_code.
void add_run(CLI::App& root, int* exit_code);
void add_check(CLI::App& root, int* exit_code);
void add_bench(CLI::App& root, int* exit_code);
void add_profile(CLI::App& root, int* exit_code);
void add_info(CLI::App& root, int* exit_code);

}  // namespace gk::cli
