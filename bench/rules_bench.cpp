// Rules benchmark (not a timed test): every registered ruleset's Analyze on seeded random battle
// tables (rules/scene/synthetic_table.h) of 60 and 300 units, 1800 x 1200 mm, a tenth of the units in
// contact with an enemy. Each ruleset gets the declarations it reads (KoW damage, FKoE targets and
// disorder, unit states). Reported: ms per Analyze call (median and p95 of the wall clock, and the
// median of the thread's CPU time, which a busy machine does not inflate), and what the report holds.
//
// A ruleset may reuse results between calls (Kings of War and TotSK do: a live table stands still
// most frames, and a move changes a neighbourhood), so the default figure is a repeated frame; --fresh times every call on a
// new ruleset instance (made outside the timing), the first frame on a table; --moving times the
// live frame in which one unit moves: each call one unit (a different one each time) is 3 mm away
// from where the last call saw it, every other unit where it was (the pipeline holds resting units'
// poses, pipeline/table_scene.h), on the same ruleset instance. --frame-path asks Analyze for what
// the frame path (live window, process) reads: the drawing and the tests, without text or report.
// --text asks for the text and not the report nor the picture (what `vedette analyze` asks for),
// --report for the report alone (`vedette analyze --json`); without any of the three, all are built.
// The repeated and moving frames' ruleset is warmed up with the call they time (what it keeps between
// calls is then what a live loop's keeps); the row's sizes and --print come from a full call on
// another instance. --verify compares every timed call's findings with a fresh ruleset's (outside
// the timing) and fails when one differs: the reuse between calls must answer as a new analysis.
//
//   rules_bench [--seeds N] [--min-ms M] [--json FILE] [--only RULESET] [--units N] [--print] [--fresh|--moving]
//               [--frame-path|--text|--report] [--calls N] [--verify]
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include <time.h>

#include <nlohmann/json.hpp>

#include "bench/bench_stats.h"
#include "rules/geometry/distance.h"
#include "rules/ruleset.h"
#include "rules/scene/synthetic_table.h"

using namespace vedette;

namespace {

using bench::Stats;
using bench::ThreadCpuMs;

double WallMs() {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// The nearest enemy ahead of u (for a declared target), or "" when none is within `reach_mm`.
std::string NearestEnemy(const Scene& s, const Unit& u, double reach_mm) {
  std::string best;
  double best_d = reach_mm;
  const geom::Base ub = Footprint(u);
  for (const Unit& o : s.units) {
    if (o.side == u.side || !o.pose) continue;
    const double d = geom::BaseToBase(ub, Footprint(o)).distance_mm;
    if (d < best_d) {
      best_d = d;
      best = o.id;
    }
  }
  return best;
}

// The declarations each ruleset reads, on every seventh unit or so.
Scene WithDeclarations(Scene s, const std::string& ruleset) {
  int i = 0;
  for (const Unit& u : s.units) {
    if (i++ % 7 != 3 || u.type == UnitType::kGeneral) continue;
    auto& d = s.declarations.units[u.id];
    if (ruleset == "kow") {
      d["damage"] = Declared{i % 5, 0};
    } else if (ruleset == "fkoe") {
      if (const std::string t = NearestEnemy(s, u, 300.0); !t.empty()) d["target"] = Declared{t, 0};
      d["disorder"] = Declared{i % 4, 0};
    } else if (ruleset == "states") {
      d["state"] = Declared{i % 3 == 0 ? "shaken" : "eager", 0};
    } else if (ruleset == "totsk") {
      d["failed_morale"] = Declared{i % 2 == 0, 0};
    }
  }
  return s;
}

// The text and JSON reports and every drawing primitive (kind, style, points to 1e-9 mm, text), so
// that two builds' findings can be compared byte for byte.
void PrintReports(const Findings& f) {
  std::cerr << f.text << f.report.dump(1) << "\n";
  for (const DrawPrimitive& d : f.drawing) {
    std::fprintf(stderr, "draw %d %d %s %s %s %08x %d %d", static_cast<int>(d.kind), static_cast<int>(d.style), d.layer.c_str(),
                 d.unit_id.c_str(), d.text.c_str(), d.rgba, d.filled, d.dashed);
    for (const geom::Vec2& p : d.points_mm) std::fprintf(stderr, " %.9f,%.9f", p.x(), p.y());
    std::fprintf(stderr, "\n");
  }
}

// Whether two calls' findings are the same to the bit: text, report, every drawing primitive and test.
bool SameFindings(const Findings& a, const Findings& b) {
  if (a.text != b.text || a.report != b.report || a.drawing.size() != b.drawing.size() || a.tests.size() != b.tests.size()) return false;
  for (size_t i = 0; i < a.drawing.size(); ++i) {
    const DrawPrimitive &x = a.drawing[i], &y = b.drawing[i];
    if (x.kind != y.kind || x.style != y.style || x.points_mm != y.points_mm || x.text != y.text || x.rgba != y.rgba ||
        x.filled != y.filled || x.dashed != y.dashed || x.layer != y.layer || x.unit_id != y.unit_id || x.glyph != y.glyph)
      return false;
  }
  for (size_t i = 0; i < a.tests.size(); ++i)
    if (a.tests[i].unit != b.tests[i].unit || a.tests[i].kind != b.tests[i].kind || a.tests[i].odds != b.tests[i].odds ||
        a.tests[i].reason != b.tests[i].reason)
      return false;
  return true;
}

struct Row {
  std::string ruleset;
  int units = 0;
  Stats wall, cpu;
  size_t text_lines = 0, tests = 0, drawing = 0;
  int verified = 0, differed = 0;  // --verify: timed calls compared with a fresh ruleset's, and how many differed
};

// What the command line asks for.
struct BenchOptions {
  int seeds = 3;
  double min_ms = 300.0;  // timed calls per table and size: at least 5, and this long over all seeds
  std::string json_out, only;
  std::vector<int> sizes = {60, 300};
  bool print = false;   // print the first table's reports and drawing to stderr (to compare two builds)
  bool fresh = false;   // a new ruleset for every call: no reuse between calls
  bool moving = false;  // one unit moved 3 mm before each call
  int fixed_calls = 0;  // > 0: exactly this many timed calls per table (to count instructions under callgrind)
  bool verify = false;  // compare every timed call's findings with a fresh ruleset's (outside the timing)
  vedette::AnalyzeOptions asked;  // what each timed call asks for (default: text and report)
};

// False on an unknown or incomplete option.
bool ParseOptions(int argc, char** argv, BenchOptions* o) {
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--seeds" && i + 1 < argc) o->seeds = std::atoi(argv[++i]);
    else if (a == "--min-ms" && i + 1 < argc) o->min_ms = std::atof(argv[++i]);
    else if (a == "--json" && i + 1 < argc) o->json_out = argv[++i];
    else if (a == "--only" && i + 1 < argc) o->only = argv[++i];
    else if (a == "--units" && i + 1 < argc) o->sizes = {std::atoi(argv[++i])};
    else if (a == "--print") o->print = true;
    else if (a == "--fresh") o->fresh = true;
    else if (a == "--moving") o->moving = true;
    else if (a == "--frame-path") o->asked = vedette::kFramePath;
    else if (a == "--text") o->asked = {.text = true, .report = false, .picture = false};
    else if (a == "--report") o->asked = {.text = false, .report = true, .picture = false};
    else if (a == "--calls" && i + 1 < argc) o->fixed_calls = std::atoi(argv[++i]);
    else if (a == "--verify") o->verify = true;
    else return false;
  }
  return true;
}

// One seeded table's timed calls into row (its sizes from the first seed's warm-up). False when a
// call returned no findings.
bool TimeTable(const BenchOptions& o, const std::string& name, const vedette::Ruleset& ruleset, int seed, Row* row) {
  SyntheticTableOptions t;
  t.units = row->units;
  t.seed = static_cast<uint64_t>(seed);
  Scene scene = WithDeclarations(MakeSyntheticTable(t), name);
  // The warm-up that sizes the row (and --print's first report) is a full call on a ruleset of its own,
  // so that the timed ruleset's memory between calls holds only what the timed calls ask for: a live
  // loop's ruleset never sees anything but the frame path. That one is warmed up with the timed call.
  const Findings first = MakeRuleset(name)->Analyze(scene);
  if (!o.fresh) ruleset.Analyze(scene, o.asked);
  if (seed == 1 && o.print) PrintReports(first);
  if (seed == 1) {
    for (char c : first.text) row->text_lines += c == '\n';
    row->tests = first.tests.size();
    row->drawing = first.drawing.size();
  }
  const double start = WallMs();
  for (int calls = 0; o.fixed_calls > 0 ? calls < o.fixed_calls : calls < 5 || WallMs() - start < o.min_ms / o.seeds; ++calls) {
    if (o.moving) {
      if (auto& p = scene.units[calls % scene.units.size()].pose) p->x_mm += (calls / scene.units.size()) % 2 ? -3.0 : 3.0;
    }
    const auto own = o.fresh ? MakeRuleset(name) : nullptr;
    const double w0 = WallMs(), c0 = ThreadCpuMs();
    const Findings f = (own ? *own : ruleset).Analyze(scene, o.asked);
    row->cpu.Add(ThreadCpuMs() - c0);
    row->wall.Add(WallMs() - w0);
    if (seed == 1 && calls == 0 && o.print) {  // the call as asked (the frame path: its drawing alone)
      std::cerr << "== first timed call\n";
      PrintReports(f);
    }
    if (f.ruleset.empty()) return false;  // keeps the call
    if (o.verify) {
      ++row->verified;
      if (!SameFindings(f, MakeRuleset(name)->Analyze(scene, o.asked))) {
        ++row->differed;
        std::fprintf(stderr, "verify: call %d on seed %d differs from a fresh ruleset's\n", calls, seed);
      }
    }
  }
  return true;
}

void Report(const std::vector<Row>& rows, const std::string& json_out) {
  std::printf("| ruleset | units | ms per Analyze (median) | p95 | CPU ms (median) | text lines | tests | drawing primitives |\n");
  std::printf("|---|---|---|---|---|---|---|---|\n");
  nlohmann::json j = nlohmann::json::array();
  for (const Row& r : rows) {
    std::printf("| %s | %d | %.3f | %.3f | %.3f | %zu | %zu | %zu |\n", r.ruleset.c_str(), r.units, r.wall.Pct(0.5),
                r.wall.Pct(0.95), r.cpu.Pct(0.5), r.text_lines, r.tests, r.drawing);
    j.push_back({{"ruleset", r.ruleset}, {"units", r.units}, {"wall_ms", r.wall.Json()}, {"cpu_ms", r.cpu.Json()},
                 {"text_lines", r.text_lines}, {"tests", r.tests}, {"drawing", r.drawing}});
  }
  if (!json_out.empty()) std::ofstream(json_out) << j.dump(2) << "\n";
}

}  // namespace

int main(int argc, char** argv) {
  BenchOptions o;
  if (!ParseOptions(argc, argv, &o)) {
    std::cerr << "usage: rules_bench [--seeds N] [--min-ms M] [--json FILE] [--only RULESET] [--units N] [--print] [--fresh|--moving] [--frame-path|--text|--report] [--calls N] [--verify]\n";
    return 2;
  }
  std::vector<Row> rows;
  for (const std::string& name : RulesetNames()) {
    if (!o.only.empty() && name != o.only) continue;
    const auto ruleset = MakeRuleset(name);
    for (int units : o.sizes) {
      Row row;
      row.ruleset = name;
      row.units = units;
      for (int seed = 1; seed <= o.seeds; ++seed)
        if (!TimeTable(o, name, *ruleset, seed, &row)) return 1;
      rows.push_back(row);
      std::fprintf(stderr, "%s %d units: %.3f ms\n", name.c_str(), units, row.cpu.Pct(0.5));
      if (o.verify) std::fprintf(stderr, "verify: %d calls, %d differ from a fresh ruleset's\n", row.verified, row.differed);
      if (row.differed > 0) return 1;
    }
  }
  Report(rows, o.json_out);
  return 0;
}
