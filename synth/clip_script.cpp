#include "synth/clip_script.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include <opencv2/calib3d.hpp>

#include "rules/geometry/vec.h"
#include "rules/input_error.h"
#include "rules/yaml_reader.h"
#include "rules/scene/scene_io.h"
#include "rules/path_checks.h"

namespace vedette::synth {

namespace {

cv::Vec3d Triple(const YamlReader& r, const YAML::Node& n, const std::string& what) {
  if (!n.IsSequence() || n.size() != 3) r.Fail(n, what + " must be a list of 3 numbers");
  return {r.Number(n[0], what + "[0]"), r.Number(n[1], what + "[1]"), r.Number(n[2], what + "[2]")};
}

void ReadCamera(const YamlReader& r, const YAML::Node& n, SyntheticCameraOptions* c) {
  r.ExpectMap(n, "camera");
  r.ExpectKeys(n, "camera", {"image_size", "height_mm", "tilt_deg", "horizontal_fov_deg", "margin", "k1", "k2", "p1", "p2", "k3"});
  if (n["image_size"]) {
    const YAML::Node s = n["image_size"];
    if (!s.IsSequence() || s.size() != 2) r.Fail(s, "camera.image_size must be [width, height] in px");
    const int w = r.Integer(s[0], "camera.image_size width"), h = r.Integer(s[1], "camera.image_size height");
    if (w < 64 || h < 64 || w > 8192 || h > 8192) r.Fail(s, "camera.image_size must be 64..8192 px each way");
    c->image_size = {w, h};
  }
  if (n["height_mm"]) c->height_mm = r.NonNegative(n["height_mm"], "camera.height_mm");
  if (n["tilt_deg"]) c->tilt_deg = r.Number(n["tilt_deg"], "camera.tilt_deg");
  if (n["horizontal_fov_deg"]) c->horizontal_fov_deg = r.Number(n["horizontal_fov_deg"], "camera.horizontal_fov_deg");
  if (n["margin"]) c->margin = r.Number(n["margin"], "camera.margin");
  if (n["k1"]) c->k1 = r.Number(n["k1"], "camera.k1");
  if (n["k2"]) c->k2 = r.Number(n["k2"], "camera.k2");
  if (n["p1"]) c->p1 = r.Number(n["p1"], "camera.p1");
  if (n["p2"]) c->p2 = r.Number(n["p2"], "camera.p2");
  if (n["k3"]) c->k3 = r.Number(n["k3"], "camera.k3");
  std::string error;
  if (!c->Check(&error)) r.Fail(n, "camera: " + error);
}

void ReadRender(const YamlReader& r, const YAML::Node& n, RenderOptions* o) {
  r.ExpectMap(n, "render");
  r.ExpectKeys(n, "render", {"supersample", "blur_sigma_px", "read_noise", "shot_noise", "light_gradient", "vignetting",
                             "jpeg_quality", "quiet_zone_cells", "anchor_quiet_zone_cells", "base_height_mm",
                             "draw_terrain", "seed"});
  if (n["supersample"]) o->supersample = r.Integer(n["supersample"], "render.supersample");
  if (n["blur_sigma_px"]) o->blur_sigma_px = r.NonNegative(n["blur_sigma_px"], "render.blur_sigma_px");
  if (n["read_noise"]) o->read_noise = r.NonNegative(n["read_noise"], "render.read_noise");
  if (n["shot_noise"]) o->shot_noise = r.NonNegative(n["shot_noise"], "render.shot_noise");
  if (n["light_gradient"]) o->light_gradient = r.NonNegative(n["light_gradient"], "render.light_gradient");
  if (n["vignetting"]) o->vignetting = r.NonNegative(n["vignetting"], "render.vignetting");
  if (n["jpeg_quality"]) o->jpeg_quality = r.Integer(n["jpeg_quality"], "render.jpeg_quality");
  if (n["quiet_zone_cells"]) o->quiet_zone_cells = r.NonNegative(n["quiet_zone_cells"], "render.quiet_zone_cells");
  if (n["anchor_quiet_zone_cells"])
    o->anchor_quiet_zone_cells = r.NonNegative(n["anchor_quiet_zone_cells"], "render.anchor_quiet_zone_cells");
  if (n["base_height_mm"]) o->base_height_mm = r.NonNegative(n["base_height_mm"], "render.base_height_mm");
  if (n["draw_terrain"]) {
    if (!n["draw_terrain"].IsScalar()) r.Fail(n["draw_terrain"], "render.draw_terrain must be true or false");
    o->draw_terrain = n["draw_terrain"].as<bool>();
  }
  if (n["seed"]) o->seed = uint64_t(r.Integer(n["seed"], "render.seed"));
  std::string error;
  if (!o->Check(&error)) r.Fail(n, "render: " + error);
}

std::vector<std::pair<double, double>> ReadIntervals(const YamlReader& r, const YAML::Node& n, const std::string& what) {
  if (!n.IsSequence()) r.Fail(n, what + " must be a list of [t0, t1] intervals (s)");
  std::vector<std::pair<double, double>> out;
  for (const auto& iv : n) {
    if (!iv.IsSequence() || iv.size() != 2) r.Fail(iv, what + ": each interval must be [t0, t1] (s)");
    const double a = r.NonNegative(iv[0], what + " t0"), b = r.Number(iv[1], what + " t1");
    if (b <= a) r.Fail(iv, what + ": interval end must be after its start");
    out.emplace_back(a, b);
  }
  return out;
}

ClipUnitScript ReadUnit(const YamlReader& r, const std::string& id, const YAML::Node& n, const Scene& roster) {
  ClipUnitScript u;
  u.id = id;
  u.line = YamlReader::LineOf(n);
  const std::string what = "unit " + id;
  if (!roster.FindUnit(id)) r.Fail(n, what + ": no such unit in the roster " + roster.source);
  r.ExpectMap(n, what);
  r.ExpectKeys(n, what, {"keys", "lifted", "placed_at", "removed_at"});
  if (n["keys"]) {
    const YAML::Node ks = n["keys"];
    if (!ks.IsSequence()) r.Fail(ks, what + ": keys must be a list of {t, x_mm, y_mm, heading_deg}");
    for (const auto& k : ks) {
      r.ExpectMap(k, what + " key");
      r.ExpectKeys(k, what + " key", {"t", "x_mm", "y_mm", "heading_deg"});
      ClipPoseKey key;
      key.line = YamlReader::LineOf(k);
      key.t = r.NonNegative(r.Require(k, "t", what + " key"), what + " key t");
      if (k["x_mm"]) key.x_mm = r.Number(k["x_mm"], what + " key x_mm");
      if (k["y_mm"]) key.y_mm = r.Number(k["y_mm"], what + " key y_mm");
      if (k["heading_deg"]) key.heading_deg = r.Number(k["heading_deg"], what + " key heading_deg");
      if (!u.keys.empty() && key.t <= u.keys.back().t) r.Fail(k, what + ": key times must increase");
      u.keys.push_back(key);
    }
    const Unit* ru = roster.FindUnit(id);
    if (!u.keys.empty() && !ru->pose &&
        (!u.keys[0].x_mm || !u.keys[0].y_mm || !u.keys[0].heading_deg))
      r.Fail(ks, what + ": the roster gives no pose, so the first key needs x_mm, y_mm and heading_deg");
  } else if (!roster.FindUnit(id)->pose) {
    r.Fail(n, what + ": the roster gives no pose, so keys are needed");
  }
  if (n["lifted"]) u.lifted = ReadIntervals(r, n["lifted"], what + ": lifted");
  if (n["placed_at"]) u.placed_at = r.NonNegative(n["placed_at"], what + ": placed_at");
  if (n["removed_at"]) u.removed_at = r.NonNegative(n["removed_at"], what + ": removed_at");
  if (u.placed_at && u.removed_at && *u.removed_at <= *u.placed_at)
    r.Fail(n, what + ": removed_at must be after placed_at");
  return u;
}

ClipHand ReadHand(const YamlReader& r, const YAML::Node& n) {
  r.ExpectMap(n, "hand");
  r.ExpectKeys(n, "hand", {"radius_mm", "height_mm", "seed", "keys"});
  ClipHand h;
  h.line = YamlReader::LineOf(n);
  if (n["radius_mm"]) h.radius_mm = r.Positive(n["radius_mm"], "hand radius_mm");
  if (n["height_mm"]) h.height_mm = r.Positive(n["height_mm"], "hand height_mm");
  if (n["seed"]) h.seed = r.Integer(n["seed"], "hand seed");
  const YAML::Node ks = r.Require(n, "keys", "hand");
  if (!ks.IsSequence() || ks.size() == 0) r.Fail(ks, "hand keys must be a non-empty list of {t, x_mm, y_mm}");
  for (const auto& k : ks) {
    r.ExpectMap(k, "hand key");
    r.ExpectKeys(k, "hand key", {"t", "x_mm", "y_mm"});
    ClipHandKey key;
    key.t = r.NonNegative(r.Require(k, "t", "hand key"), "hand key t");
    key.x_mm = r.Number(r.Require(k, "x_mm", "hand key"), "hand key x_mm");
    key.y_mm = r.Number(r.Require(k, "y_mm", "hand key"), "hand key y_mm");
    if (!h.keys.empty() && key.t <= h.keys.back().t) r.Fail(k, "hand: key times must increase");
    h.keys.push_back(key);
  }
  return h;
}

double Lerp(double a, double b, double s) { return a + (b - a) * s; }

// Heading interpolation the short way round.
double LerpAngle(double a, double b, double s) {
  double d = std::remainder(b - a, 360.0);
  return a + d * s;
}

bool InIntervals(const std::vector<std::pair<double, double>>& ivs, double t) {
  for (const auto& [a, b] : ivs)
    if (t >= a && t < b) return true;
  return false;
}

Pose PoseAt(const ClipUnitScript& s, const Pose& start, double t) {
  // Fill the keys' missing fields from the previous key (the first from the roster pose).
  Pose prev = start;
  std::vector<std::pair<double, Pose>> keys;
  for (const ClipPoseKey& k : s.keys) {
    Pose p = prev;
    if (k.x_mm) p.x_mm = *k.x_mm;
    if (k.y_mm) p.y_mm = *k.y_mm;
    if (k.heading_deg) p.heading_deg = *k.heading_deg;
    keys.emplace_back(k.t, p);
    prev = p;
  }
  if (keys.empty()) return start;
  if (t <= keys.front().first) return keys.front().second;
  if (t >= keys.back().first) return keys.back().second;
  for (size_t i = 1; i < keys.size(); ++i) {
    if (t > keys[i].first) continue;
    const double sfrac = (t - keys[i - 1].first) / (keys[i].first - keys[i - 1].first);
    const Pose& a = keys[i - 1].second;
    const Pose& b = keys[i].second;
    return {Lerp(a.x_mm, b.x_mm, sfrac), Lerp(a.y_mm, b.y_mm, sfrac), LerpAngle(a.heading_deg, b.heading_deg, sfrac)};
  }
  return keys.back().second;
}

}  // namespace

int ClipScript::FrameCount() const { return std::max(1, int(std::lround(duration_s * fps))); }

std::string_view ToString(ClipUnitState s) {
  switch (s) {
    case ClipUnitState::kOnTable: return "on_table";
    case ClipUnitState::kLifted: return "lifted";
    case ClipUnitState::kAbsent: return "absent";
    case ClipUnitState::kRemoved: return "removed";
  }
  return "?";
}

namespace {

// The roster (a file beside the script, or written inline); the node to name in its errors.
YAML::Node ReadRoster(const YamlReader& r, const YAML::Node& root, const std::string& source_name, const std::string& base_dir,
                      ClipScript* s) {
  SceneLoadOptions load;
  load.require_poses = false;
  if (root["roster"] && root["roster_scene"]) r.Fail(root["roster_scene"], "give either roster or roster_scene, not both");
  if (root["roster"]) {
    const std::filesystem::path p(r.String(root["roster"], "roster"));
    s->roster_path = (p.is_absolute() || base_dir.empty()) ? p.string() : (std::filesystem::path(base_dir) / p).string();
    if (!PathExists(s->roster_path)) r.Fail(root["roster"], "roster file not found: " + s->roster_path);
    s->roster = LoadScene(s->roster_path, load);
  } else if (root["roster_scene"]) {
    YAML::Emitter out;
    out << root["roster_scene"];
    s->roster = ParseScene(out.c_str(), source_name + " (roster_scene)", load);
    s->roster.source = source_name;
  } else {
    r.Fail(root, "missing field 'roster' (path of the roster scene file)");
  }
  const YAML::Node roster_node = root["roster"] ? root["roster"] : root["roster_scene"];
  if (s->roster.dictionary.empty()) r.Fail(roster_node, "the roster has no 'dictionary' (e.g. DICT_4X4_50)");
  for (const Unit& u : s->roster.units)
    if (!u.marker) r.Fail(roster_node, "roster unit " + u.id + " has no marker");
  return roster_node;
}

void ReadTiming(const YamlReader& r, const YAML::Node& root, ClipScript* s) {
  if (root["fps"]) {
    s->fps = r.Positive(root["fps"], "fps");
    if (s->fps > 240) r.Fail(root["fps"], "fps must be at most 240");
  }
  if (root["duration_s"]) s->duration_s = r.Positive(root["duration_s"], "duration_s");
  if (s->duration_s * s->fps > 100000) r.Fail(root["duration_s"], "a clip of more than 100000 frames is not supported");
}

// The units' keys; every roster unit must have a pose from the roster or from its keys.
void ReadScriptedUnits(const YamlReader& r, const YAML::Node& root, const YAML::Node& roster_node, ClipScript* s) {
  if (root["units"]) {
    const YAML::Node us = root["units"];
    r.ExpectMap(us, "units");
    for (auto it = us.begin(); it != us.end(); ++it)
      s->units.push_back(ReadUnit(r, it->first.as<std::string>(), it->second, s->roster));
  }
  for (const Unit& u : s->roster.units) {
    const bool scripted = std::any_of(s->units.begin(), s->units.end(), [&](const ClipUnitScript& c) { return c.id == u.id; });
    if (!scripted && !u.pose)
      r.Fail(roster_node, "roster unit " + u.id + " has no pose and no keys in the script's units");
  }
}

void ReadCameraMoves(const YamlReader& r, const YAML::Node& list, ClipScript* s) {
  if (!list.IsSequence()) r.Fail(list, "camera_moves must be a list");
  for (const auto& m : list) {
    r.ExpectMap(m, "camera move");
    r.ExpectKeys(m, "camera move", {"t", "rotate_deg", "translate_mm"});
    ClipCameraMove cm;
    cm.line = YamlReader::LineOf(m);
    cm.t = r.NonNegative(r.Require(m, "t", "camera move"), "camera move t");
    if (m["rotate_deg"]) cm.rotate_deg = Triple(r, m["rotate_deg"], "camera move rotate_deg");
    if (m["translate_mm"]) cm.translate_mm = Triple(r, m["translate_mm"], "camera move translate_mm");
    if (cv::norm(cm.rotate_deg) > 30) r.Fail(m, "camera move: rotate_deg above 30 deg is not a bump");
    s->camera_moves.push_back(cm);
  }
  std::stable_sort(s->camera_moves.begin(), s->camera_moves.end(),
                   [](const ClipCameraMove& a, const ClipCameraMove& b) { return a.t < b.t; });
}

void ReadScriptDeclarations(const YamlReader& r, const YAML::Node& list, ClipScript* s) {
  if (!list.IsSequence()) r.Fail(list, "declarations must be a list");
  for (const auto& d : list) {
    r.ExpectMap(d, "declaration");
    r.ExpectKeys(d, "declaration", {"t", "unit", "key", "value"});
    ClipDeclaration cd;
    cd.line = YamlReader::LineOf(d);
    cd.t = r.NonNegative(r.Require(d, "t", "declaration"), "declaration t");
    cd.unit = r.String(r.Require(d, "unit", "declaration"), "declaration unit");
    if (!s->roster.FindUnit(cd.unit)) r.Fail(d["unit"], "declaration: no unit '" + cd.unit + "' in the roster");
    cd.key = r.String(r.Require(d, "key", "declaration"), "declaration key");
    cd.value = r.Json(r.Require(d, "value", "declaration"), "declaration value");
    s->declarations.push_back(cd);
  }
  std::stable_sort(s->declarations.begin(), s->declarations.end(),
                   [](const ClipDeclaration& a, const ClipDeclaration& b) { return a.t < b.t; });
}

}  // namespace

ClipScript ParseClipScript(const std::string& text, const std::string& source_name, const std::string& base_dir) {
  const YamlReader r(source_name);
  const YAML::Node root = ParseYamlText(text, source_name);
  if (!root.IsMap()) throw InputError(source_name, 1, "a clip script must be a mapping (roster:, fps:, duration_s:, ...)");
  r.ExpectKeys(root, "clip script",
               {"roster", "roster_scene", "fps", "duration_s", "camera", "render", "units", "hands", "camera_moves",
                "declarations"});
  ClipScript s;
  s.source = source_name;
  const YAML::Node roster_node = ReadRoster(r, root, source_name, base_dir, &s);
  ReadTiming(r, root, &s);
  if (root["camera"]) ReadCamera(r, root["camera"], &s.camera);
  s.camera.table_width_mm = s.roster.table_width_mm;
  s.camera.table_depth_mm = s.roster.table_depth_mm;
  if (root["render"]) ReadRender(r, root["render"], &s.render);
  ReadScriptedUnits(r, root, roster_node, &s);
  if (root["hands"]) {
    if (!root["hands"].IsSequence()) r.Fail(root["hands"], "hands must be a list");
    for (const auto& h : root["hands"]) s.hands.push_back(ReadHand(r, h));
  }
  if (root["camera_moves"]) ReadCameraMoves(r, root["camera_moves"], &s);
  if (root["declarations"]) ReadScriptDeclarations(r, root["declarations"], &s);
  return s;
}

std::vector<ClipDeclaration> ClipDeclarationsAt(const ClipScript& script, int frame) {
  // Frame f shows the time span (t(f-1), t(f)]; frame 0 takes everything up to its time.
  const double t1 = script.TimeOf(frame), t0 = frame > 0 ? script.TimeOf(frame - 1) : -1e300;
  std::vector<ClipDeclaration> out;
  for (const ClipDeclaration& d : script.declarations)
    if (d.t > t0 + 1e-9 && d.t <= t1 + 1e-9) out.push_back(d);
  return out;
}

ClipScript LoadClipScript(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw InputError(path, 0, "cannot read the clip script");
  std::stringstream buf;
  buf << in.rdbuf();
  return ParseClipScript(buf.str(), path, std::filesystem::path(path).parent_path().string());
}

calib::CameraFromTable BumpCamera(const calib::CameraFromTable& c, const cv::Vec3d& rotate_deg, const cv::Vec3d& translate_mm) {
  const double k = CV_PI / 180.0;
  cv::Matx33d r;
  cv::Rodrigues(cv::Vec3d(rotate_deg[0] * k, rotate_deg[1] * k, rotate_deg[2] * k), r);
  // point_in_new_camera = r * point_in_old_camera + t
  calib::CameraFromTable out;
  out.rotation = r * c.rotation;
  out.translation_mm = r * c.translation_mm + translate_mm;
  return out;
}

SyntheticCamera ClipCamera(const ClipScript& script) { return MakeSyntheticCamera(script.camera); }

ClipMoment ClipMomentAt(const ClipScript& script, int frame) {
  ClipMoment m;
  m.frame = frame;
  m.t = script.TimeOf(frame);
  m.scene = script.roster;
  const SyntheticCamera cam = ClipCamera(script);
  m.camera_from_table = cam.camera_from_table;
  for (const ClipCameraMove& cm : script.camera_moves)
    if (m.t >= cm.t) m.camera_from_table = BumpCamera(m.camera_from_table, cm.rotate_deg, cm.translate_mm);
  for (Unit& u : m.scene.units) {
    const ClipUnitScript* s = nullptr;
    for (const ClipUnitScript& c : script.units)
      if (c.id == u.id) s = &c;
    ClipUnitState state = ClipUnitState::kOnTable;
    Pose start = u.pose.value_or(Pose{});
    if (s && !s->keys.empty() && !u.pose) {
      start = {*s->keys[0].x_mm, *s->keys[0].y_mm, *s->keys[0].heading_deg};
    }
    const Pose pose = s ? PoseAt(*s, start, m.t) : start;
    if (s) {
      if (s->placed_at && m.t < *s->placed_at) state = ClipUnitState::kAbsent;
      else if (s->removed_at && m.t >= *s->removed_at) state = ClipUnitState::kRemoved;
      else if (InIntervals(s->lifted, m.t)) state = ClipUnitState::kLifted;
    }
    m.states[u.id] = state;
    if (state != ClipUnitState::kAbsent) m.poses[u.id] = pose;
    if (state == ClipUnitState::kOnTable) u.pose = pose;
    else u.pose.reset();
  }
  for (const ClipHand& h : script.hands) {
    if (h.keys.empty() || m.t < h.keys.front().t || m.t > h.keys.back().t) continue;
    ClipHandAt at;
    at.radius_mm = h.radius_mm;
    at.height_mm = h.height_mm;
    at.seed = h.seed;
    at.x_mm = h.keys.back().x_mm;
    at.y_mm = h.keys.back().y_mm;
    for (size_t i = 1; i < h.keys.size(); ++i) {
      if (m.t > h.keys[i].t) continue;
      const double f = (m.t - h.keys[i - 1].t) / (h.keys[i].t - h.keys[i - 1].t);
      at.x_mm = Lerp(h.keys[i - 1].x_mm, h.keys[i].x_mm, f);
      at.y_mm = Lerp(h.keys[i - 1].y_mm, h.keys[i].y_mm, f);
      break;
    }
    if (h.keys.size() == 1) {
      at.x_mm = h.keys[0].x_mm;
      at.y_mm = h.keys[0].y_mm;
    }
    m.hands.push_back(at);
  }
  return m;
}

}  // namespace vedette::synth
