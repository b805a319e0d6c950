// flows: replays timed flows with SimGrid's s4u, for netsched's comparison
// (network/simgrid_test.go, scripts/simgrid/run-flows.sh, docs/networks.md).
// Usage: flows PLATFORM.xml FLOWS.txt [--cfg=...]. FLOWS.txt has a line
// "src dst size start" per flow (host indices, bytes, seconds); the program
// starts each flow with Comm::sendto_async at its start, from an actor of
// its own that waits for its end, and prints
// "index end" per flow, in the file's order, with 17 significant digits,
// then its CPU time on stderr ("cpu SECONDS").
#include <simgrid/s4u.hpp>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <vector>

namespace sg4 = simgrid::s4u;

struct Flow { int src, dst; unsigned long long size; double start, end = -1; };

int main(int argc, char* argv[]) {
  sg4::Engine e(&argc, argv);
  if (argc != 3) { std::fprintf(stderr, "usage: %s PLATFORM.xml FLOWS.txt [--cfg=...]\n", argv[0]); return 2; }
  e.load_platform(argv[1]);
  std::vector<Flow> flows;
  std::ifstream in(argv[2]);
  for (Flow f; in >> f.src >> f.dst >> f.size >> f.start;) flows.push_back(f);
  for (Flow& f : flows)
    sg4::Actor::create("flow", e.host_by_name("h" + std::to_string(f.src)), [&e, &f] {
      sg4::this_actor::sleep_until(f.start);
      sg4::Comm::sendto_async(sg4::this_actor::get_host(), e.host_by_name("h" + std::to_string(f.dst)), f.size)->wait();
      f.end = sg4::Engine::get_clock();
    });
  e.run();
  for (size_t i = 0; i < flows.size(); i++) std::printf("%zu %.17g\n", i, flows[i].end);
  std::fprintf(stderr, "cpu %.6f\n", double(std::clock()) / CLOCKS_PER_SEC); // for flowbench
  return 0;
}
