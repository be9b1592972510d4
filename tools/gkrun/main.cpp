// gkrun: run, check, benchmark, profile and inspect ONNX models.
#include "tools/gkrun/commands.h"
#include "tools/gkrun/common.h"

#include <spdlog/spdlog.h>

int main(int argc, char** argv) {
  CLI::App app{"gkrun: an ONNX inference runtime (CUDA via NVRTC, and CPU)", "gkrun"};
  app.set_version_flag("--version", "gkrun " GK_VERSION);
  bool verbose = false, quiet = false;
  app.add_flag("-v,--verbose", verbose, "debug logging (and per-tensor tables)");
  app.add_flag("-q,--quiet", quiet, "errors only");
  app.require_subcommand(0, 1);
  app.fallthrough();
  int exit_code = gk::cli::kExitOk;
  gk::cli::add_run(app, &exit_code);
  gk::cli::add_check(app, &exit_code);
  gk::cli::add_bench(app, &exit_code);
  gk::cli::add_profile(app, &exit_code);
  gk::cli::add_info(app, &exit_code);
  app.parse_complete_callback([&] {
    spdlog::set_level(verbose ? spdlog::level::debug : quiet ? spdlog::level::err : spdlog::level::info);
    spdlog::set_pattern("%^[%l]%$ %v");
  });
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::string what = e.what();
    fmt::print(stderr, "gkrun: {} (see gkrun --help)\n", what);
    return gk::cli::kExitInvalid;
  } catch (const std::exception& e) {
    fmt::print(stderr, "gkrun: internal error: {}\n", e.what());
    return gk::cli::kExitRuntime;
  }
  return exit_code;
}
