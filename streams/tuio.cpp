#include "streams/tuio.h"

#include <chrono>
#include <cmath>

#include "streams/udp_sender.h"
#include "vision/track_frame.h"

namespace vedette::streams {
namespace {

constexpr double kPi = 3.14159265358979323846;

// Table heading (deg, counter-clockwise, y away from player A) -> TUIO angle (rad, clockwise on a
// picture whose y grows toward player A), in [0, 2 pi).
float TuioAngle(double heading_deg) {
  double a = std::fmod(-heading_deg * kPi / 180.0, 2 * kPi);
  if (a < 0) a += 2 * kPi;
  if (a >= 2 * kPi) a = 0;
  return static_cast<float>(a);
}

std::int32_t TypeId(UnitType t) { return static_cast<std::int32_t>(t) + 1; }

}  // namespace

std::vector<TuioUnit> TuioUnits(const pipeline::PipelineFrame& frame, const Scene& roster) {
  std::vector<TuioUnit> units;
  const double w = roster.table_width_mm, d = roster.table_depth_mm;
  for (size_t i = 0; i < frame.track.units.size(); ++i) {
    const vision::TrackedUnit& t = frame.track.units[i];
    if (!t.has_pose || !vision::OnTable(t.state)) continue;
    const Unit* spec = roster.FindUnit(t.id);
    if (!spec) continue;
    Unit placed = *spec;
    placed.pose = t.pose;
    const geom::Base foot = Footprint(placed);
    TuioUnit u;
    u.s_id = static_cast<std::int32_t>(spec - roster.units.data()) + 1;
    u.tu_id = TypeId(spec->type);  // user 0 in the high 16 bits: nobody holds it
    u.c_id = t.marker;
    u.x = static_cast<float>(t.pose.x_mm / w);
    u.y = static_cast<float>(1.0 - t.pose.y_mm / d);
    u.angle = TuioAngle(t.pose.heading_deg);
    u.bx = static_cast<float>(foot.centre_mm.x() / w);
    u.by = static_cast<float>(1.0 - foot.centre_mm.y() / d);
    u.bangle = TuioAngle(foot.heading_deg);
    u.width = static_cast<float>(foot.width_mm / w);
    u.height = static_cast<float>(foot.depth_mm / w);
    u.area = static_cast<float>(foot.width_mm * foot.depth_mm / (w * d));
    units.push_back(u);
  }
  return units;
}

std::string TuioBundle(const std::vector<TuioUnit>& units, std::int32_t frame_id, const OscTimetag& time,
                       const Scene& roster, const std::string& source) {
  std::vector<std::string> elements;
  const auto dim16 = [](double mm) { return static_cast<std::uint32_t>(std::lround(std::clamp(mm, 0.0, 65535.0))); };
  const std::uint32_t dim = dim16(roster.table_width_mm) << 16 | dim16(roster.table_depth_mm);
  elements.push_back(OscMessage("/tuio2/frm").Int(frame_id).Timetag(time).Int(static_cast<std::int32_t>(dim)).String(source).Bytes());
  for (const TuioUnit& u : units) {
    elements.push_back(OscMessage("/tuio2/tok").Int(u.s_id).Int(u.tu_id).Int(u.c_id).Float(u.x).Float(u.y).Float(u.angle).Bytes());
    elements.push_back(OscMessage("/tuio2/bnd").Int(u.s_id).Float(u.bx).Float(u.by).Float(u.bangle).Float(u.width)
                           .Float(u.height).Float(u.area).Bytes());
  }
  OscMessage alive("/tuio2/alv");
  for (const TuioUnit& u : units) alive.Int(u.s_id);
  elements.push_back(alive.Bytes());
  return OscBundle(time, elements);
}

TuioSink::TuioSink(const TuioOptions& options, const Scene& roster)
    : options_(options), roster_(roster), udp_(std::make_unique<UdpSender>(options.target, "--tuio")) {}

TuioSink::~TuioSink() = default;

void TuioSink::OnFrame(pipeline::FrameOutput& out) {
  const double now = std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
  udp_->Send(TuioBundle(TuioUnits(out.frame, roster_), out.frame.track.frame, TimetagFromUnix(now), roster_,
                        options_.source));
}

int TuioSink::sent() const { return udp_->sent(); }
int TuioSink::dropped() const { return udp_->dropped(); }

}  // namespace vedette::streams
