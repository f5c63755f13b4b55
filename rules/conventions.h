#pragma once
// Vedette's conventions, in one place. Every module follows them; every field comment repeats the
// unit it holds.
//
// Table frame ("table"): millimetres. The origin is the corner of the table to player A's left;
// +x runs along player A's table edge to the right, +y runs away from player A towards player B,
// +z is up. A point on the table is (x_mm, y_mm).
//
// Heading: the direction a unit's front faces, in degrees counter-clockwise from +x. A unit facing
// player B has heading 90; facing player A, 270 (reported as -90 after normalisation to (-180, 180]).
//
// A base is a rectangle: centre (table mm), heading (deg), width (frontage, along the front edge, mm)
// and depth (front to rear, mm). Its own frame ("base"): origin at the centre, u to the unit's right,
// v to its front, in mm. Corners are listed front-left, front-right, rear-right, rear-left.
//
// The leader point is the centre of a base's front edge.
//
// BW (base width) is the scene's unit of distance for TotSK-style rules: bw_mm millimetres, set per
// scene and optionally per side. Every distance reported to a person is given in mm and in the
// ruleset's unit (BW or inches).
//
// Transforms are named by their frames: camera_from_table maps a point in the table frame into the
// camera frame; point_in_table = table_from_camera * point_in_camera.

namespace vedette {

inline constexpr double kMmPerInch = 25.4;

}  // namespace vedette
