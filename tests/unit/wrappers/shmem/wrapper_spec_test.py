"""The OpenSHMEM wrapper generator's classification (wrapper_spec.py) and its output for the
installed shmem.h: every kind of call gets the records it should, and every shmem_* function
with a pshmem_* counterpart is wrapped except the queries.

    wrapper_spec_test.py SPEC_DIR GENERATED_WRAPPERS GENERATED_TABLE
"""
import re
import sys
import unittest

SPEC_DIR, WRAPPERS, TABLE = sys.argv[1:4]
sys.dont_write_bytecode = True
sys.path.insert(0, SPEC_DIR)
import wrapper_spec  # noqa: E402


class Classification(unittest.TestCase):
    def test_kinds(self):
        expected = {
            "shmem_long_p": "put", "shmem_putmem": "put", "shmem_ctx_int_put": "put",
            "shmem_iput32": "put", "shmem_putmem_nbi": "put_nbi", "shmem_double_g": "get",
            "shmem_getmem": "get", "shmem_get64_nbi": "get_nbi",
            "shmem_long_atomic_fetch_add": "atomic_fetch", "shmem_long_finc": "atomic_fetch",
            "shmem_long_fetch": "atomic_fetch", "shmem_int_atomic_add": "atomic",
            "shmem_long_atomic_set": "atomic", "shmem_long_cswap": "atomic_swap",
            "shmem_barrier_all": "barrier_all", "shmem_sync_all": "barrier_all",
            "shmem_barrier": "barrier", "shmem_broadcast64": "broadcast",
            "shmem_fcollect32": "collect", "shmem_alltoalls64": "alltoall",
            "shmem_longlong_sum_to_all": "reduce", "shmem_quiet": "memory_sync",
            "shmem_ctx_fence": "memory_sync", "shmem_set_lock": "set_lock",
            "shmem_test_lock": "test_lock", "shmem_clear_lock": "clear_lock",
            "shmem_long_wait_until": "wait", "shmem_wait": "wait", "shmem_int_test": "test",
            "shmem_init": "init", "shmem_init_thread": "init", "shmem_finalize": "finalize",
            "shmem_global_exit": "abort", "shmem_malloc": None,
        }
        for name, kind in expected.items():
            self.assertEqual(wrapper_spec.kind_of(name), kind, name)

    def test_type_names(self):
        self.assertEqual(wrapper_spec.untyped("shmem_longlong_g"), ("g", "longlong"))
        self.assertEqual(wrapper_spec.untyped("shmem_ctx_uint64_atomic_xor"),
                         ("atomic_xor", "uint64"))
        self.assertEqual(wrapper_spec.element_bits("shmem_put32_nbi"), 32)
        self.assertEqual(wrapper_spec.element_bits("shmem_getmem"), 8)
        self.assertIsNone(wrapper_spec.element_bits("shmem_long_put"))


def wrapper_body(name):
    with open(WRAPPERS) as f:
        text = f.read()
    m = re.search(r'extern "C" [^\n]*\b' + name + r"\((.*?)\n}\n", text, re.S)
    return m.group(0) if m else None


class GeneratedWrappers(unittest.TestCase):
    def test_records_per_kind(self):
        self.assertIn("shmem::put(*r, entered, pe, sizeof(value))", wrapper_body("shmem_long_p"))
        self.assertIn("std::uint64_t(len) * 1", wrapper_body("shmem_putmem"))
        self.assertIn("std::uint64_t(len) * sizeof(long)", wrapper_body("shmem_long_put"))
        self.assertIn("shmem::issued", wrapper_body("shmem_putmem_nbi"))
        self.assertIn("shmem::get(*r, entered, pe, sizeof(long))", wrapper_body("shmem_long_g"))
        self.assertIn("RmaAtomicType::FetchAndAdd", wrapper_body("shmem_long_atomic_fetch_add"))
        self.assertIn("CollectiveOp::Barrier, RmaSyncLevel::ProcessAndMemory",
                      wrapper_body("shmem_barrier_all"))
        self.assertIn("RmaSyncLevel::Process,", wrapper_body("shmem_sync_all"))
        self.assertIn("CollectiveOp::Bcast", wrapper_body("shmem_broadcast64"))
        self.assertIn("shmem::lock_requested", wrapper_body("shmem_set_lock"))
        self.assertIn("shmem::lock_acquired", wrapper_body("shmem_set_lock"))
        self.assertIn("shmem::lock_tried", wrapper_body("shmem_test_lock"))
        self.assertIn("shmem::wait_change", wrapper_body("shmem_long_wait_until"))
        self.assertIn("shmem::memory_sync", wrapper_body("shmem_quiet"))
        self.assertIn("shmem_init_enter", wrapper_body("shmem_init"))
        self.assertIn("abort_enter", wrapper_body("shmem_global_exit"))

    def test_queries_are_not_wrapped(self):
        for name in wrapper_spec.EXCLUDED:
            self.assertIsNone(wrapper_body(name), name)

    def test_table_matches_wrappers(self):
        with open(TABLE) as f:
            table = re.findall(r'\{"(shmem_\w+)", (\d+)\}', f.read())
        with open(WRAPPERS) as f:
            wrapped = re.findall(r'extern "C" [^\n]*?\b(shmem_\w+)\(', f.read())
        self.assertEqual([n for n, _ in table], sorted(wrapped))
        self.assertGreater(len(table), 700)  # Open MPI 4.1: about 825
        roles = dict(table)
        self.assertEqual(roles["shmem_barrier_all"], "15")  # OTF2_REGION_ROLE_BARRIER
        self.assertEqual(roles["shmem_long_p"], "29")  # OTF2_REGION_ROLE_RMA


if __name__ == "__main__":
    unittest.main(argv=sys.argv[:1])
