#pragma once
// An event line of the log (pipeline/event_log.h) in words for the players: what the live window's
// event panel and `vedette review` show. The log keeps every field for programs; a player reads
// "B1 wheel, 19 mm: test ..., pass 67 %", "R2 lifted off the table at (380, 600) mm", never JSON.
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace vedette::pipeline {

// "[frame] words"; a line of a type it does not know is given by its type and unit.
std::string EventWords(const nlohmann::json& line);

// What the tracker knows of a unit, as the units panel says it: "at rest", "hidden (a hand?)", ...
// `state`: vision::ToString's word ("at_rest", "occluded", ...).
std::string TrackingWords(std::string_view state);

}  // namespace vedette::pipeline
