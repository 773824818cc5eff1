"""summarize_added_instructions.py: instructions per call from a callgrind_annotate listing."""
import os
import sys
import unittest

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import summarize_added_instructions as s  # noqa: E402

# A callgrind_annotate --inclusive=yes listing: traced_block in two per-file parts, untraced_block
# in one, and a source annotation's call line that must not count again.
LISTING = """\
 7,143,103 ( 5.52%)  /src/call_family_loop.cpp:(anonymous namespace)::traced_block(char const*, \
(anonymous namespace)::Context&, int) [/build/call_family_loop]
       900 ( 0.00%)  /usr/include/c++/12/bits/chrono.h:(anonymous namespace)::traced_block(char \
const*, (anonymous namespace)::Context&, int)
   681,300 ( 0.53%)  /src/call_family_loop.cpp:(anonymous namespace)::untraced_block(char const*, \
(anonymous namespace)::Context&, int) [/build/call_family_loop]
7,143,103 ( 5.52%)  => /src/call_family_loop.cpp:(anonymous namespace)::traced_block(char const*, \
(anonymous namespace)::Context&, int) (10x)
"""


class SummarizeTest(unittest.TestCase):
    def test_block_sums_its_parts_but_not_call_lines(self):
        self.assertEqual(s.block_instructions(LISTING, "traced_block"), 7_144_003)
        self.assertEqual(s.block_instructions(LISTING, "untraced_block"), 681_300)

    def test_added_per_call_divides_by_the_calls_of_the_blocks(self):
        # 20000 calls in 10 blocks of one call per iteration.
        self.assertAlmostEqual(s.added_per_call(LISTING, "comm_rank", 20000),
                               (7_144_003 - 681_300) / 20000)
        # send_recv makes two calls per iteration; 20005 calls round down to 10 blocks of 2000.
        self.assertAlmostEqual(s.added_per_call(LISTING, "send_recv", 20005),
                               (7_144_003 - 681_300) / 40000)

    def test_a_profile_without_the_blocks_gives_no_figure(self):
        self.assertIsNone(s.added_per_call("no blocks here\n", "comm_rank", 20000))


if __name__ == "__main__":
    unittest.main()
