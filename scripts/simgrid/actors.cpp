// actors: SimGrid's side of the process benchmark of issue 40.
//
// A actors on one host each sleep S times, for Exp(1) durations drawn from
// its own generator (std::mt19937_64 seeded with seed and the actor's
// index). It prints one line:
//
//	simgrid-actors actors=A sleeps=S events=A*S end=<simulated end> cpu-s=<CPU seconds of the run>
//
// where cpu-s is the process's user+system time spent in Engine::run (the
// platform and the actors are built before it starts). netsched's side is
// BenchmarkSleepers in package sim; scripts/simgrid/actors.sh runs both.
//
// Build: g++ -O2 -std=c++17 actors.cpp -o actors -lsimgrid
// Run:   ./actors [actors] [sleeps] [seed]   (defaults 100 10000 1)
#include <simgrid/s4u.hpp>
#include <sys/resource.h>

#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>

namespace sg4 = simgrid::s4u;

static double cpu_seconds()
{
  rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  return ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 + ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
}

int main(int argc, char** argv)
{
  sg4::Engine e(&argc, argv); // consumes SimGrid's own --cfg= and --log= options
  long actors = argc > 1 ? std::atol(argv[1]) : 100;
  long sleeps = argc > 2 ? std::atol(argv[2]) : 10000;
  unsigned long seed = argc > 3 ? std::strtoul(argv[3], nullptr, 10) : 1;
  if (actors <= 0 || sleeps <= 0) {
    std::fprintf(stderr, "usage: %s [actors > 0] [sleeps > 0] [seed]\n", argv[0]);
    return 2;
  }

  auto* zone = sg4::create_full_zone("zone");
  sg4::Host* host = zone->create_host("host", 1e9);
  zone->seal();

  for (long i = 0; i < actors; i++) {
    sg4::Actor::create("sleeper-" + std::to_string(i), host, [i, sleeps, seed]() {
      std::mt19937_64 rng(seed * 1000003 + i);
      std::exponential_distribution<double> exp1(1.0);
      for (long k = 0; k < sleeps; k++)
        sg4::this_actor::sleep_for(exp1(rng));
    });
  }

  double cpu0 = cpu_seconds();
  e.run();
  double cpu = cpu_seconds() - cpu0;
  std::printf("simgrid-actors actors=%ld sleeps=%ld events=%ld end=%.6f cpu-s=%.6f\n", actors, sleeps,
              actors * sleeps, sg4::Engine::get_clock(), cpu);
  return 0;
}
