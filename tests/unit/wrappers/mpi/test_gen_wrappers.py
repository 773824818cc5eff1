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
OMPI_DECLSPEC int MPI_Waitall(int count, MPI_Request array_of_requests[],
                              MPI_Status *array_of_statuses);
OMPI_DECLSPEC int PMPI_Waitall(int count, MPI_Request array_of_requests[],
                               MPI_Status *array_of_statuses);
OMPI_DECLSPEC int MPI_Comm_set_name(MPI_Comm comm, const char *comm_name);
OMPI_DECLSPEC int PMPI_Comm_set_name(MPI_Comm comm, const char *comm_name);
OMPI_DECLSPEC int MPI_Allreduce(const void *sendbuf, void *recvbuf, int count,
                                MPI_Datatype datatype, MPI_Op op, MPI_Comm comm);
OMPI_DECLSPEC int PMPI_Allreduce(const void *sendbuf, void *recvbuf, int count,
                                 MPI_Datatype datatype, MPI_Op op, MPI_Comm comm);
OMPI_DECLSPEC int MPI_Init(int *argc, char ***argv);
OMPI_DECLSPEC int PMPI_Init(int *argc, char ***argv);
OMPI_DECLSPEC int MPI_T_finalize(void);
OMPI_DECLSPEC int PMPI_T_finalize(void);
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
        self.assertIn("const RegionRef kRegion = mpi_region(3);", text)
        self.assertIn("if (!r) return PMPI_Attr_get(comm, keyval, attribute_val, flag);", text)
        self.assertIn("const Ticks entered = now();", text)
        self.assertIn("r->enter_from(entered, kRegion, __builtin_return_address(0));",
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
        # The send's record is written after the PMPI call (off the message's critical path)
        # and before the Leave, so the records keep their order.
        self.assertLess(text.index("const int rc = PMPI_Send"), text.index("handle_send"))
        self.assertLess(text.index("handle_send"), text.index("r->leave("))

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
        self.assertIn("const std::uint32_t kMpiRegionCount = 2;", table)


class Fortran(unittest.TestCase):
    def render(self, name, binding="f77", region=5):
        proto = parse()[name]
        return gen_wrappers.render_fortran_wrapper(proto, region, wrapper_spec.semantics_of(name),
                                                   binding)

    def test_every_mangling_and_the_f08_name(self):
        f77, f08 = gen_wrappers.fortran_names("MPI_Send")
        self.assertEqual(f77, ["mpi_send_", "mpi_send__", "mpi_send", "MPI_SEND"])
        self.assertEqual(f08, "mpi_send_f08_")
        text = self.render("MPI_Send")
        self.assertIn('extern "C" void mpi_send_(void* f_buf, void* f_count, void* f_datatype, '
                      'void* f_dest, void* f_tag, void* f_comm, MPI_Fint* ierror)', text)
        for alias in ("mpi_send__", "mpi_send", "MPI_SEND"):
            self.assertIn(f'extern "C" void {alias}(void*, void*, void*, void*, void*, void*, '
                          'MPI_Fint*) __attribute__((alias("mpi_send_")));', text)
        self.assertIn('"pmpi_send_", "pmpi_send", "pmpi_send__", "PMPI_SEND", nullptr', text)
        f08 = self.render("MPI_Send", "f08")
        self.assertIn('extern "C" void mpi_send_f08_(', f08)
        self.assertIn('"pmpi_send_f08_", nullptr', f08)
        self.assertNotIn("alias", f08)

    def test_same_region_and_handlers_on_c_views(self):
        text = self.render("MPI_Send", region=11)
        self.assertIn("const RegionRef kRegion = mpi_region(11);", text)
        self.assertIn("const int count = fortran_int(f_count);", text)
        self.assertIn("const MPI_Datatype datatype = PMPI_Type_f2c("
                      "*static_cast<const MPI_Fint*>(f_datatype));", text)
        self.assertIn("const MPI_Comm comm = PMPI_Comm_f2c(", text)
        self.assertIn('guarded("MPI_Send", [&] { handle_send(c, count, datatype, dest, tag, '
                      'comm); });', text)
        # The caller's arguments go to the library unchanged; IERROR may be absent (mpi_f08).
        self.assertIn("pmpi(f_buf, f_count, f_datatype, f_dest, f_tag, f_comm, f_ierror);", text)
        self.assertIn("MPI_Fint* const f_ierror = ierror ? ierror : &own_ierror;", text)

    def test_recorded_once_and_sentinels_left_to_the_library(self):
        text = self.render("MPI_Allreduce")
        self.assertLess(text.index("if (inside_fortran_call()) return pmpi("),
                        text.index("FortranCallScope scope;"))
        self.assertIn("pmpi(f_sendbuf, f_recvbuf,", text)
        c = gen_wrappers.render_wrapper(parse()["MPI_Allreduce"], 5,
                                        wrapper_spec.semantics_of("MPI_Allreduce"))
        self.assertIn("if (inside_fortran_call()) return PMPI_Allreduce(", c)

    def test_statuses_are_ours_when_ignored_and_converted_for_the_handlers(self):
        text = self.render("MPI_Waitall")
        self.assertIn("FortranRequests array_of_requests_h(f_array_of_requests, count);", text)
        self.assertIn("FortranStatuses array_of_statuses_s(f_array_of_statuses, count);", text)
        self.assertIn("array_of_statuses_s.fortran(), f_ierror);", text)
        self.assertLess(text.index("array_of_statuses_s.refresh();"),
                        text.index("done.after_waitall(rc)"))
        self.assertIn("done.set_left(c.left);", text)

    def test_character_arguments_get_hidden_lengths(self):
        text = self.render("MPI_Comm_set_name")
        self.assertIn("void* f_comm_name, MPI_Fint* ierror, std::size_t length0)", text)
        self.assertIn("fortran_string(static_cast<const char*>(f_comm_name), length0)", text)
        self.assertIn("pmpi(f_comm, f_comm_name, f_ierror, length0);", text)

    def test_init_has_no_argc_argv_in_fortran(self):
        text = self.render("MPI_Init")
        self.assertIn('extern "C" void mpi_init_(MPI_Fint* ierror)', text)
        self.assertIn("init_enter(kRegion, __builtin_return_address(0));", text)
        self.assertIn("pmpi(f_ierror);", text)

    def test_functions_with_results_and_the_tool_interface_are_skipped(self):
        wrapped, _ = gen_wrappers.wrapped_functions(parse())
        chosen, skipped = gen_wrappers.fortran_functions(wrapped)
        names = {p.name for _, p in chosen}
        self.assertIn("MPI_Send", names)
        self.assertIn("MPI_Aint_add", skipped)
        self.assertIn("MPI_T_finalize", skipped)
        # Regions are the C table's.
        regions = {p.name: r for r, p in enumerate(wrapped)}
        self.assertTrue(all(regions[p.name] == r for r, p in chosen))
        listed = gen_wrappers.render_fortran_names(chosen).split()
        self.assertIn("mpi_attr_get_", listed)
        self.assertNotIn("mpi_attr_get_f08_", listed)  # deprecated, no mpi_f08 binding

    def test_a_parameter_without_a_fortran_view_is_an_error(self):
        proto = parse()["MPI_Attr_get"]
        odd = wrapper_spec.Semantics(before="handle_it(c, {attribute_val}, {keyval});",
                                     after="x({flag});")
        text = gen_wrappers.render_fortran_wrapper(proto, 0, odd, "f77")
        self.assertIn("const void* const attribute_val = c_buffer(f_attribute_val);", text)
        aint = parse()["MPI_Aint_add"]
        bad = wrapper_spec.Semantics(before="h(c, {base});")
        with self.assertRaisesRegex(SpecError, "no Fortran view of parameter base"):
            gen_wrappers.render_fortran_wrapper(aint, 0, bad, "f77")


class AnalyzerTable(unittest.TestCase):
    """The analyzer's MPI function table comes from the spec (gen_function_classes.py)."""

    def test_send_modes_follow_the_function_names(self):
        for name, mode in [("MPI_Send", "Standard"), ("MPI_Issend", "Synchronous"),
                           ("MPI_Bsend_init", "Buffered"), ("MPI_Irsend", "Ready"),
                           ("MPI_Sendrecv_replace", "Standard"), ("MPI_Recv", "None"),
                           ("MPI_Send_c", "None")]:
            self.assertEqual(wrapper_spec.send_mode(name), mode, name)

    def test_collectives_and_their_nonblocking_forms_are_classified(self):
        for name in wrapper_spec.COLLECTIVES:
            self.assertEqual(wrapper_spec.ANALYSIS["MPI_" + name], "Collective")
            nonblocking = "MPI_I" + name[0].lower() + name[1:]
            self.assertEqual(wrapper_spec.ANALYSIS[nonblocking], "NonblockingCollective")

    def test_table_is_sorted_and_names_each_function_once(self):
        import gen_function_classes
        lines = gen_function_classes.table_lines()
        names = [line.split('"')[1] for line in lines]
        self.assertEqual(names, sorted(set(names)))
        self.assertIn('{"MPI_Ssend", RC::BlockingSend, SM::Synchronous},', lines)
        self.assertIn('{"MPI_Waitall", RC::Wait, SM::None},', lines)


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
