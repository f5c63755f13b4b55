#pragma once
// TUIO 2.0 (http://www.tuio.org/?tuio20) over OSC/UDP: what reacTIVision-style table software
// listens for on port 3333. One OSC bundle per frame:
//   /tuio2/frm f_id(i) time(t) dim(i) source(s)      dim = table width_mm << 16 | depth_mm
//   /tuio2/tok s_id(i) tu_id(i) c_id(i) x(f) y(f) a(f)  per unit on the table
//   /tuio2/bnd s_id(i) x(f) y(f) a(f) w(f) h(f) f(f)    per unit: its footprint (all its bases)
//   /tuio2/alv s_id...(i)                              the units on the table
// Coordinates follow TUIO's screen convention, seen from player A's side: x = x_mm / table width
// (0 left .. 1 right), y = 1 - y_mm / table depth (0 at the far edge .. 1 at player A's edge), and
// the angle in radians clockwise on that picture, in [0, 2 pi): -heading. A float32 near 1 is
// exact to 6e-8, 0.1 um on a 1800 mm table, and an angle to 5e-7 rad (3e-5 deg): floats suffice.
// bnd's width and height are normalised by the table's width and its area by the table's area
// (TUIO leaves non-square surfaces open). s_id is the unit's index in the roster + 1, stable for a
// run; tu_id = user 0 << 16 | type (1 infantry, 2 cavalry, 3 artillery, 4 general), c_id = the
// unit's marker id. Units lifted, removed or never seen are not in the bundle.
#include <memory>
#include <string>
#include <vector>

#include "pipeline/frame_loop.h"
#include "rules/scene/scene.h"
#include "streams/osc.h"

namespace vedette::streams {

struct TuioOptions {
  std::string target;              // HOST:PORT, e.g. 127.0.0.1:3333
  std::string source = "vedette";  // frm's source string
};

// One unit as TUIO sees it (already normalised; streams/tuio.h's header says how).
struct TuioUnit {
  std::int32_t s_id = 0, tu_id = 0, c_id = 0;
  float x = 0, y = 0, angle = 0;                          // tok: normalised, radians
  float bx = 0, by = 0, bangle = 0, width = 0, height = 0, area = 0;  // bnd
};

// The units of `frame` on the table (roster gives their bases and types).
std::vector<TuioUnit> TuioUnits(const pipeline::PipelineFrame& frame, const Scene& roster);

// The frame's bundle: frm, tok and bnd per unit, alv.
std::string TuioBundle(const std::vector<TuioUnit>& units, std::int32_t frame_id, const OscTimetag& time,
                       const Scene& roster, const std::string& source);

class UdpSender;

// Sends each frame's bundle to one HOST:PORT; a lost datagram is not retried (the next frame
// carries the whole table again).
class TuioSink : public pipeline::FrameSink {
 public:
  TuioSink(const TuioOptions& options, const Scene& roster);  // throws InputError on a bad target
  ~TuioSink() override;
  void OnFrame(pipeline::FrameOutput& out) override;
  int sent() const;
  int dropped() const;

 private:
  TuioOptions options_;
  const Scene& roster_;
  std::unique_ptr<UdpSender> udp_;
};

}  // namespace vedette::streams
