#include "overlay/callouts.h"

#include <algorithm>
#include <cctype>
#include <unordered_map>

#include "overlay/draw_commands.h"
#include "overlay/label_layout.h"

namespace vedette::overlay {

bool CalloutOptions::Check(std::string* error) const {
  if (wrap_chars < 12 || wrap_chars > 400) {
    if (error) *error = "callouts: wrap_chars must be 12..400 characters";
    return false;
  }
  return true;
}

bool JoinsCard(const DrawPrimitive& p) {
  if (p.kind != DrawKind::kLabel || p.unit_id.empty() || p.own_place) return false;
  if (p.layer != "labels" && p.layer != "tests") return false;
  switch (p.style) {
    case DrawStyle::kBase:
    case DrawStyle::kTest:
    case DrawStyle::kVerdict:
    case DrawStyle::kIllegal:
    case DrawStyle::kInfo: return true;
    default: return false;
  }
}

std::string CardLineText(const std::string& text, const std::string& unit_id) {
  std::string s = text;
  if (s.size() > unit_id.size() && s.compare(0, unit_id.size(), unit_id) == 0 &&
      (s[unit_id.size()] == ' ' || s[unit_id.size()] == ':')) {
    size_t k = unit_id.size();
    while (k < s.size() && (s[k] == ' ' || s[k] == ':')) ++k;
    s = s.substr(k);
  }
  if (!s.empty() && std::islower(static_cast<unsigned char>(s[0]))) s[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(s[0])));
  return s;
}

std::vector<std::string> Wrap(const std::string& text, int chars) {
  std::vector<std::string> out;
  const size_t n = static_cast<size_t>(chars), orphan = 8;  // a last word this short stays on its line
  size_t start = 0;
  while (start < text.size()) {
    const size_t left = text.size() - start;
    size_t cut = std::string::npos;
    if (left > n) {
      cut = text.rfind(' ', start + n);
      if (cut == std::string::npos || cut < start) cut = text.find(' ', start + n);  // a word longer than a line
      else if (left <= n + orphan && text.size() - cut - 1 <= orphan) cut = std::string::npos;  // a short last word stays
    }
    if (cut == std::string::npos) {
      out.push_back(text.substr(start));
      break;
    }
    out.push_back(text.substr(start, cut - start));
    start = cut + 1;
  }
  return out;
}

namespace {

struct Card {
  int name = -1;                 // the unit's name label, index into labels
  std::vector<int> members;      // its other labels
  std::vector<Glyph> glyphs;
};

// The members in reading order: what the player must act on first.
void SortMembers(const std::vector<DrawPrimitive>& primitives, const std::vector<LabelCommand>& labels, std::vector<int>* m) {
  std::stable_sort(m->begin(), m->end(), [&](int a, int b) {
    return LabelPriority(primitives[labels[a].primitive].style) < LabelPriority(primitives[labels[b].primitive].style);
  });
}

LabelCommand MakeCard(const CalloutOptions& o, const std::vector<DrawPrimitive>& primitives, const std::string& unit,
                      const Card& c, const std::vector<LabelCommand>& labels) {
  const LabelCommand& first = labels[c.name >= 0 ? c.name : c.members.front()];
  LabelCommand card = first;
  card.text = c.name >= 0 ? first.text : unit;
  card.line_rgba = {c.name >= 0 ? first.text_rgba : 0xFFFFFFFF};
  card.glyphs = c.glyphs;
  int best = c.name >= 0 ? LabelPriority(primitives[first.primitive].style) : 99;
  for (int i : c.members) {
    const LabelCommand& l = labels[i];
    card.height_px = std::max(card.height_px, l.height_px);
    const int priority = LabelPriority(primitives[l.primitive].style);
    if (priority < best) {
      best = priority;
      card.primitive = l.primitive;
    }
    size_t start = 0;
    while (start <= l.text.size()) {  // a member's own lines, each wrapped
      const size_t end = std::min(l.text.find('\n', start), l.text.size());
      for (const std::string& line : Wrap(CardLineText(l.text.substr(start, end - start), unit), o.wrap_chars)) {
        card.text += "\n" + line;
        card.line_rgba.push_back(l.text_rgba);
      }
      start = end + 1;
    }
  }
  return card;
}

}  // namespace

void GatherCallouts(const CalloutOptions& options, const std::vector<DrawPrimitive>& primitives,
                    const std::vector<int>& glyphs, std::vector<LabelCommand>* labels) {
  if (!options.enabled) return;
  std::unordered_map<std::string, Card> cards;
  std::vector<std::string> order;  // units in the order their first label came
  for (int i = 0; i < static_cast<int>(labels->size()); ++i) {
    const int pi = (*labels)[i].primitive;
    if (pi < 0 || pi >= static_cast<int>(primitives.size()) || !JoinsCard(primitives[pi])) continue;
    const DrawPrimitive& p = primitives[pi];
    auto [it, added] = cards.try_emplace(p.unit_id);
    if (added) order.push_back(p.unit_id);
    if (p.style == DrawStyle::kBase && it->second.name < 0) it->second.name = i;
    else it->second.members.push_back(i);
  }
  for (int g : glyphs) {
    auto it = cards.find(primitives[g].unit_id);
    if (it != cards.end() && std::find(it->second.glyphs.begin(), it->second.glyphs.end(), primitives[g].glyph) == it->second.glyphs.end())
      it->second.glyphs.push_back(primitives[g].glyph);
  }
  std::vector<char> drop(labels->size(), 0);
  std::vector<LabelCommand> made;
  for (const std::string& unit : order) {
    Card& c = cards[unit];
    if (c.members.empty() && c.glyphs.empty()) continue;  // a name alone stays a plain label
    SortMembers(primitives, *labels, &c.members);
    made.push_back(MakeCard(options, primitives, unit, c, *labels));
    if (c.name >= 0) drop[c.name] = 1;
    for (int i : c.members) drop[i] = 1;
  }
  size_t out = 0;
  for (size_t i = 0; i < labels->size(); ++i) {
    if (drop[i]) continue;
    if (out != i) (*labels)[out] = std::move((*labels)[i]);  // never onto itself: a moved-from string is empty
    ++out;
  }
  labels->resize(out);
  for (LabelCommand& c : made) labels->push_back(std::move(c));
}

}  // namespace vedette::overlay
