"""gen_wrappers.py on small fake headers: parsing, selection, rendering, spec errors."""

import io
import os
import tempfile
import unittest
from contextlib import redirect_stderr

import gen_wrappers
import wrapper_spec
from gen_wrappers import Prototype, SpecError

# Both spellings gen_wrappers.py meets: mpi.h as written (OMPI_DECLSPEC, comments, #if) and as
# the preprocessor leaves it (attributes expanded).
FAKE_HEADER = r"""
/* A comment mentioning int MPI_Commented(int x); */
#define OMPI_DECLSPEC __attribute__((visibility("default")))
typedef struct ompi_status_public_t MPI_Status;
struct ompi_status_public_t { int MPI_SOURCE; int MPI_TAG; };
typedef int (MPI_Copy_function)(MPI_Comm, int, void *);
OMPI_DECLSPEC int MPI_Send(const void *buf, int count, MPI_Datatype datatype, int dest,
                           int tag, MPI_Comm comm);
OMPI_DECLSPEC int PMPI_Send(const void *buf, int count, MPI_Datatype datatype, int dest,
                            int tag, MPI_Comm comm);
__attribute__((visibility("default"))) int MPI_Group_range_incl(MPI_Group group, int n,
    int ranges[][3], MPI_Group *newgroup);
__attribute__((visibility("default"))) int PMPI_Group_range_incl(MPI_Group group, int n,
    int ranges[][3], MPI_Group *newgroup);
OMPI_DECLSPEC int MPI_Attr_get(MPI_Comm comm, int keyval, void *attribute_val, int *flag)
    __attribute__((__deprecated__("MPI_Attr_get was deprecated in MPI-2.0")));
OMPI_DECLSPEC int PMPI_Attr_get(MPI_Comm comm, int keyval, void *attribute_val, int *flag);
OMPI_DECLSPEC int MPI_Pcontrol(const int level, ...);
OMPI_DECLSPEC int PMPI_Pcontrol(const int level, ...);
OMPI_DECLSPEC int MPI_Finalize(void);
OMPI_DECLSPEC int PMPI_Finalize(void);
OMPI_DECLSPEC int MPI_Unnamed(MPI_Comm, int *);
OMPI_DECLSPEC int PMPI_Unnamed(MPI_Comm, int *);
OMPI_DECLSPEC int MPI_Type_create_f90_real(int p, int r, MPI_Datatype *newtype);
OMPI_DECLSPEC int PMPI_Type_create_f90_real(int p, int r, MPI_Datatype *newtype);
OMPI_DECLSPEC MPI_Aint MPI_Aint_add(MPI_Aint base, MPI_Aint disp);
OMPI_DECLSPEC MPI_Aint PMPI_Aint_add(MPI_Aint base, MPI_Aint disp);
OMPI_DECLSPEC double MPI_Wtime(void);
OMPI_DECLSPEC double PMPI_Wtime(void);
OMPI_DECLSPEC MPI_Fint MPI_Comm_c2f(MPI_Comm comm);
OMPI_DECLSPEC MPI_Fint PMPI_Comm_c2f(MPI_Comm comm);
OMPI_DECLSPEC int MPI_Only_here(int x);
"""


def parse():
    return gen_wrappers.parse_prototypes(FAKE_HEADER)


class Parsing(unittest.TestCase):
    def test_finds_prototypes_in_both_spellings_and_skips_the_rest(self):
        protos = parse()
        self.assertIn("MPI_Send", protos)
        self.assertIn("PMPI_Group_range_incl", protos)
        self.assertNotIn("MPI_Commented", protos)  # comments do not count
        self.assertNotIn("MPI_Copy_function", protos)  # typedefs do not count
        self.assertNotIn("MPI_SOURCE", protos)

    def test_parameters_keep_their_declarations_and_names(self):
        send = parse()["MPI_Send"]
        self.assertEqual([p.name for p in send.params],
                         ["buf", "count", "datatype", "dest", "tag", "comm"])
        self.assertEqual(send.params[0].decl(), "const void *buf")
        ranges = parse()["MPI_Group_range_incl"].params[2]
        self.assertEqual((ranges.name, ranges.decl()), ("ranges", "int ranges[][3]"))

    def test_attributes_void_variadic_and_return_types(self):
        protos = parse()
        self.assertEqual(len(protos["MPI_Attr_get"].params), 4)  # deprecation attribute gone
        self.assertEqual(protos["MPI_Finalize"].params, ())
        self.assertTrue(protos["MPI_Pcontrol"].variadic)
        self.assertEqual([p.name for p in protos["MPI_Pcontrol"].params], ["level"])
        self.assertEqual(protos["MPI_Aint_add"].ret, "MPI_Aint")
        self.assertEqual(protos["MPI_Wtime"].ret, "double")

    def test_unnamed_parameters_get_names(self):
        params = parse()["MPI_Unnamed"].params
        self.assertEqual([p.decl() for p in params], ["MPI_Comm arg0", "int * arg1"])


class Selection(unittest.TestCase):
    def test_wraps_functions_with_pmpi_counterpart_and_reports_the_rest(self):
        wrapped, skipped = gen_wrappers.wrapped_functions(parse())
        names = [p.name for p in wrapped]
        self.assertEqual(names, sorted(names))  # region index = position, stable
        self.assertIn("MPI_Send", names)
        self.assertIn("MPI_Aint_add", names)
        self.assertNotIn("PMPI_Send", names)
        self.assertIn("no PMPI_", skipped["MPI_Only_here"])
        self.assertIn("timer", skipped["MPI_Wtime"])
        self.assertIn("Fortran", skipped["MPI_Comm_c2f"])

    def test_spec_names_must_exist_in_the_header(self):
        with self.assertRaisesRegex(SpecError, "MPI_Isend"):
            gen_wrappers.check_spec(parse())


class Rendering(unittest.TestCase):
    def render(self, name, region=7):
        proto = parse()[name]
        return gen_wrappers.render_wrapper(proto, region, wrapper_spec.semantics_of(name))

    def test_plain_wrapper_records_enter_and_leave_around_pmpi(self):
        text = self.render("MPI_Attr_get", 3)
        self.assertIn('extern "C" int MPI_Attr_get(MPI_Comm comm, int keyval, '
                      'void *attribute_val, int *flag)', text)
        self.assertIn("constexpr RegionRef kRegion = 3;", text)
        self.assertIn("if (!r) return PMPI_Attr_get(comm, keyval, attribute_val, flag);", text)
        self.assertIn("const Ticks entered = now();", text)
        self.assertIn("r->enter(entered, kRegion, intern_callsite(__builtin_return_address(0)));",
                      text)
        self.assertLess(text.index("const int rc = PMPI_Attr_get"),
                        text.index("const Ticks left = now();"))
        self.assertIn("r->leave(left, kRegion);", text)
        self.assertEqual(text.count("now()"), 2)
        self.assertNotIn("Tracing c", text)

    def test_handlers_reuse_the_enter_and_leave_times(self):
        both = wrapper_spec.Semantics(before="handle_send(c, {count});",
                                      after="handle_recv(c, rc, {comm});")
        text = gen_wrappers.render_wrapper(parse()["MPI_Send"], 0, both)
        self.assertEqual(text.count("now()"), 2)
        self.assertIn("Tracing c{*r, semantics(), entered};", text)
        self.assertLess(text.index("handle_send"), text.index("const int rc = PMPI_Send"))
        self.assertLess(text.index("const Ticks left = now();"), text.index("c.left = left;"))
        self.assertLess(text.index("c.left = left;"), text.index("handle_recv"))

    def test_semantic_wrapper_calls_its_handler_guarded(self):
        text = self.render("MPI_Send")
        self.assertIn('guarded("MPI_Send", [&] { handle_send(c, count, datatype, dest, tag, '
                      'comm); });', text)
        self.assertLess(text.index("handle_send"), text.index("const int rc = PMPI_Send"))

    def test_parameters_named_like_wrapper_locals_are_renamed(self):
        text = self.render("MPI_Type_create_f90_real")
        self.assertIn("MPI_Type_create_f90_real(int p, int r_arg, MPI_Datatype *newtype)", text)
        self.assertIn("PMPI_Type_create_f90_real(p, r_arg, newtype)", text)

    def test_variadic_arguments_are_not_forwarded(self):
        text = self.render("MPI_Pcontrol")
        self.assertIn("MPI_Pcontrol(const int level, ...)", text)
        self.assertIn("PMPI_Pcontrol(level)", text)

    def test_non_int_results_are_returned(self):
        self.assertIn("const MPI_Aint rc = PMPI_Aint_add(base, disp);",
                      self.render("MPI_Aint_add"))

    def test_unknown_parameter_in_a_snippet_is_an_error(self):
        proto = parse()["MPI_Attr_get"]
        bad = wrapper_spec.Semantics(before="handle_send(c, {count});")
        with self.assertRaisesRegex(SpecError, r"MPI_Attr_get: spec refers to \{count\}"):
            gen_wrappers.render_wrapper(proto, 0, bad)

    def test_table_lists_names_and_role_values(self):
        wrapped = [Prototype("MPI_Barrier", "int", (), False),
                   Prototype("MPI_Send", "int", (), False)]
        table = gen_wrappers.render_table(wrapped)
        self.assertIn('{"MPI_Barrier", 15},', table)
        self.assertIn('{"MPI_Send", 28},', table)
        self.assertIn("const std::uint32_t kFunctionCount = 2;", table)


class CommandLine(unittest.TestCase):
    def test_fails_with_a_message_when_the_spec_does_not_fit_the_header(self):
        with tempfile.TemporaryDirectory() as tmp:
            header = os.path.join(tmp, "mpi.i")
            with open(header, "w", encoding="utf-8") as f:
                f.write(FAKE_HEADER)
            stderr = io.StringIO()
            with redirect_stderr(stderr):
                rc = gen_wrappers.main(["--header", header,
                                        "--wrappers", os.path.join(tmp, "w.cpp"),
                                        "--table", os.path.join(tmp, "t.cpp")])
            self.assertEqual(rc, 1)
            self.assertIn("gen_wrappers.py: wrapper_spec.py names functions", stderr.getvalue())
            self.assertFalse(os.path.exists(os.path.join(tmp, "w.cpp")))


if __name__ == "__main__":
    unittest.main()
