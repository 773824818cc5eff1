#include "heatmap_svg.h"

#include <gtest/gtest.h>

#include <cmath>
#include <sstream>

#include "markup_escape.h"

namespace collwrap {
namespace {

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

TEST(HeatmapScale, RangeIgnoresCellsWithoutData) {
  const HeatmapMatrix m = {{NAN, 2.0}, {5.0, -1.0}};
  const HeatmapScale s = value_range(m);
  EXPECT_DOUBLE_EQ(s.min, -1.0);
  EXPECT_DOUBLE_EQ(s.max, 5.0);
  const HeatmapScale none = value_range({{NAN}});
  EXPECT_DOUBLE_EQ(none.min, 0);
  EXPECT_DOUBLE_EQ(none.max, 0);
}

TEST(HeatmapScale, WidenCoversBoth) {
  const HeatmapScale s = widen({1, 3}, {2, 7});
  EXPECT_DOUBLE_EQ(s.min, 1);
  EXPECT_DOUBLE_EQ(s.max, 7);
}

TEST(HeatmapScale, FractionIsClampedAndZeroForASingleValue) {
  EXPECT_DOUBLE_EQ(scale_fraction(15, {10, 20}), 0.5);
  EXPECT_DOUBLE_EQ(scale_fraction(30, {10, 20}), 1.0);
  EXPECT_DOUBLE_EQ(scale_fraction(0, {10, 20}), 0.0);
  EXPECT_DOUBLE_EQ(scale_fraction(10, {10, 10}), 0.0);
}

TEST(HeatmapColor, RampEndsAndMiddle) {
  EXPECT_EQ(heatmap_color(0), "#440154");
  EXPECT_EQ(heatmap_color(1), "#fde725");
  EXPECT_EQ(heatmap_color(0.5), "#21918c");
  EXPECT_EQ(heatmap_color(-3), heatmap_color(0));
  EXPECT_EQ(heatmap_color(NAN), heatmap_color(0));
}

TEST(HeatmapSvg, OneCellPerEntryWithTooltipsAndEscapedText) {
  const HeatmapMatrix m = {{0, 1, 2}, {3, NAN, 5}};
  HeatmapOptions o;
  o.title = "latency <8 B> & more";
  o.unit = "us";
  std::ostringstream out;
  write_heatmap_svg(m, o, out);
  const std::string svg = out.str();
  EXPECT_EQ(svg.rfind("<svg xmlns=\"http://www.w3.org/2000/svg\"", 0), 0u);
  EXPECT_NE(svg.find("</svg>"), std::string::npos);
  EXPECT_EQ(count(svg, "<title>"), 6u);
  EXPECT_NE(svg.find("1 \u2192 2: 5 us"), std::string::npos);
  EXPECT_NE(svg.find("1 \u2192 1: no data"), std::string::npos);
  EXPECT_NE(svg.find("latency &lt;8 B&gt; &amp; more"), std::string::npos);
  EXPECT_EQ(svg.find("<8 B>"), std::string::npos);
  // Local normalization: the largest cell takes the top colour, the smallest the bottom one.
  EXPECT_NE(svg.find("fill=\"#fde725\"><title>1 \u2192 2"), std::string::npos);
  EXPECT_NE(svg.find("fill=\"#440154\"><title>0 \u2192 0"), std::string::npos);
}

TEST(HeatmapSvg, GlobalScaleKeepsColoursComparable) {
  HeatmapOptions o;
  o.scale = HeatmapScale{0, 10};
  std::ostringstream out;
  write_heatmap_svg({{5}}, o, out);
  EXPECT_NE(out.str().find("fill=\"" + heatmap_color(0.5) + "\"><title>0 \u2192 0"),
            std::string::npos);
}

TEST(MarkupEscape, EscapesEveryMarkupCharacter) {
  EXPECT_EQ(escape_markup("a<b>&\"c'"), "a&lt;b&gt;&amp;&quot;c&#39;");
  EXPECT_EQ(escape_markup("plain.c"), "plain.c");
}

}  // namespace
}  // namespace collwrap
