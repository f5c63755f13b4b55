#pragma once
// The TotSK move judge's parts, shared by its files: the ordered move (totsk_move.cpp), the moves
// that follow a morale test or a contact (move_reactions.cpp), and the tests a move needs
// (move_tests.cpp). Internal to rules/totsk: CheckTotskMove (totsk_move.h) is the interface.
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "rules/geometry/contact.h"
#include "rules/ruleset.h"
#include "rules/totsk/command_points.h"
#include "rules/totsk/totsk_analysis.h"
#include "rules/totsk/totsk_data.h"
#include "rules/totsk/totsk_units.h"

namespace vedette::totsk::move {

std::string Mm(double mm);                // "2.5 mm"
nlohmann::json PoseJson(const Pose& p);  // rounded to 0.1 mm / 0.1 deg
// The unit's pose that puts its footprint at fp_target, given its pose puts it at fp_now.
Pose PoseOf(const Unit& u, const geom::Base& fp_target, const geom::Base& fp_now);
// Length (mm) of the path a point travels when the base goes from `a` to `b` by one rotation.
double PathLength(const geom::Vec2& p, const geom::Vec2& q, double turn_deg);

struct PlannedTest {
  int phase = 0;  // FAQ order: 1 fire, 2 second move, 3 the move's own tests (3a at start, 3b wheel, 3c terrain, 3d contact)
  ActionTest test;
  std::string halt_where;
  Pose halt;
};

// Enemies touching the unit at the start (corners included: a base pushed into contact by hand).
struct Touch {
  const Unit* unit;
  geom::Contact contact;  // edge_a: this unit's edge, edge_b: the enemy's
};

// The requested move's geometry, worked out once for every step.
struct MoveGeometry {
  Unit moved;              // the unit at its end pose, in its end formation
  geom::Base from_fp, to_fp;
  Pose start;              // where it stands
  double bw = 0.0;         // its base width, mm
  double slack = 0.0;      // the placement slack, mm
  double turn = 0.0;       // deg, counter-clockwise > 0
  double aturn = 0.0;      // |turn|, deg
  geom::Vec2 delta{0, 0};  // the centre's travel, mm
  double dist = 0.0;       // |delta|, mm
  double off = 0.0;        // deg between the travel and the facing at the start (0: straight ahead, or no travel)
};

// How the move is charged against the movement table.
struct Travel {
  double counted_mm = 0.0;  // distance charged, mm
  bool half_move = false;   // straight back or a formation change: half the rate
};

// The ground the move crosses and the rate it allows.
struct Ground {
  bool rough = false, road = false;
  std::vector<std::string> rough_ids;    // the bad going crossed
  std::vector<geom::Polygon> bad_polys;  // their outlines, counter-clockwise
  std::string row;                       // the movement table's row ("" when there is none)
  std::string formation;                 // at the end
  double allowance_bw = 0.0;             // BW
};

class MoveJudge {
 public:
  MoveJudge(const TotskData& d, const TotskSettings& s, const Scene& scene, const MoveRequest& move)
      : d_(d), s_(s), scene_(scene), move_(move), tol_(d.tolerances) {}
  MoveCheck Run();

 private:
  void Illegal(const std::string& why) {
    if (legal_) reason_ = why;
    legal_ = false;
  }
  void AddTest(int phase, const std::string& key, std::vector<Modifier> extra, const std::string& where, const Pose& halt,
               std::vector<std::string> by = {});
  std::string BwText(double mm) const;  // "0.5 BW (20 mm)"
  // The request names a placed unit and a finite pose (else it is illegal, said).
  bool ReadRequest();
  void Measure();
  // The verdict, its text and report (with `extra`'s keys).
  MoveCheck Finish(const nlohmann::json& extra);

  // QRS 95-99 and the FAQ's lining up: the moves that follow a morale test or a contact rather than
  // the movement table (break-off, pursuit, light troops' pull back, lining up). True when the move is
  // one of them: kinds_, tests_, notes_ and the legality are then set and `extra` holds its report.
  bool Reaction(nlohmann::json* extra);
  std::vector<Touch> TouchingAtStart() const;
  bool FinishReaction(nlohmann::json* extra);  // the reaction's common report; always true
  bool CavalryBreakOff(nlohmann::json* extra);
  std::vector<const Unit*> RearSupportsAtStart() const;
  void RetireAway(nlohmann::json* extra);
  void FallBackThroughSupports(nlohmann::json* extra);
  bool Pursuit(nlohmann::json* extra);
  bool ArtilleryBreakOff(nlohmann::json* extra);
  bool BreakOffChoice(nlohmann::json* extra);
  bool PullBack(nlohmann::json* extra);
  bool WithdrawOrForcedBack(nlohmann::json* extra);
  bool LineUp(nlohmann::json* extra);
  std::optional<geom::Contact> LineUpContact(const Touch& t) const;
  bool AboutFace() const { return g_.aturn >= 180.0 - tol_.turn_deg; }
  bool Rearward() const { return g_.dist > g_.slack && g_.off >= 180.0 - 45.0; }
  // Base b faces enemy e: e's centre ahead of b's front edge, within 45 degrees of its facing.
  bool Faces(const geom::Base& b, const geom::Base& e) const;
  // Area of b in cover (and in bad going when asked), mm^2.
  double CoverArea(const geom::Base& b, bool with_bad_going) const;

  // The ordered move's steps.
  Travel Classify();
  void ClassifyKeepingFacing(Travel* t);
  const UnitAnalysis* StartPosition();
  void Meets();
  bool InCombatAtStart() const;
  void MeetUnit(const Unit& o, bool in_combat_at_start, nlohmann::json* contacts, nlohmann::json* overlaps);
  void ContactRules();
  double SweptOverlap(const geom::Polygon& poly) const;
  Ground GroundCrossed();
  void Allowance(const Travel& travel, Ground* g);
  void PlanTests(const UnitAnalysis* ua, const Ground& ground);
  void ManoeuvreTests();
  void WheelTest();
  void BadGoingTest(const Ground& ground);
  void ContactTests();
  void Summarise(const Travel& travel, const Ground& ground);
  // The request names a formation other than the unit's.
  bool FormationChange() const { return !move_.formation.empty() && move_.formation != u_->formation; }
  bool Has(const std::string& kind) const { return std::find(kinds_.begin(), kinds_.end(), kind) != kinds_.end(); }

  // A second or later move is a bonus move: it spends a command point of a General in reach.
  void BonusMove(const geom::Base& from_fp, nlohmann::json* report);
  // Who aligns to whom after each new contact (FAQ 249 and "Moving into the flank a single unit").
  void Conformation(const geom::Base& to_fp, const std::vector<const Unit*>& contacted,
                    const std::vector<std::string>& kinds, nlohmann::json* report);
  const std::string& Difficulty(const std::string& key) const {
    const MoveTest& t = d_.move_tests.at(key);
    return IsIm(*u_) && !t.im_difficulty.empty() ? t.im_difficulty : t.difficulty;
  }

  static constexpr const char* kStays = "where it stands (it does not move)";
  const TotskData& d_;
  const TotskSettings& s_;
  const Scene& scene_;
  const MoveRequest& move_;
  const Tolerances& tol_;
  const Unit* u_ = nullptr;
  MoveGeometry g_;
  MoveCheck m_;
  nlohmann::json report_;
  bool legal_ = true;
  std::string reason_;
  std::vector<std::string> kinds_, notes_;
  std::vector<PlannedTest> tests_;
  std::vector<StateChange> changes_;  // the mover's own, when the move is legal
  std::vector<Touch> touching_;       // enemies touching it at the start (reactions)
  TotskAnalysis start_analysis_;      // the scene as it stands, for the unit
  std::vector<geom::Polygon> swept_;  // the ground the base sweeps
  std::vector<const Unit*> contacted_;      // enemies newly contacted
  std::vector<std::string> contact_kinds_;  // "contact_front" / "contact_flank" / "contact_rear", same order
};

}  // namespace vedette::totsk::move
