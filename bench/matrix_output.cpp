#include "matrix_output.h"

#include <cmath>
#include <cstdio>
#include <functional>
#include <sstream>
#include <stdexcept>

#include "matrix_heatmaps.h"
#include "matrix_schedule.h"
#include "output_file.h"

namespace collwrap::bench {
namespace {

bool wants_global(Normalization n) {
  return n != Normalization::Local;
}
bool wants_local(Normalization n) {
  return n != Normalization::Global;
}

// Renders with `write` and writes the file; false (after a message on stderr) on failure.
bool write_file(const std::string& path, const std::function<void(std::ostream&)>& write) {
  std::ostringstream content;
  write(content);
  return write_output_file("matrix", path, content.str());
}

}  // namespace

std::string matrix_file_name(MatrixStatistic statistic, std::size_t length) {
  return std::string(kStatisticNames[std::size_t(statistic)]) + "_" + std::to_string(length) +
         ".csv";
}

std::string heatmap_file_name(MatrixStatistic statistic, std::size_t length, bool global) {
  return std::string(kStatisticNames[std::size_t(statistic)]) + "_" + std::to_string(length) +
         (global ? ".global.svg" : ".local.svg");
}

void write_delay_matrix(const HeatmapMatrix& seconds, std::ostream& out) {
  char buf[32];
  for (const auto& row : seconds) {
    for (std::size_t c = 0; c < row.size(); ++c) {
      if (std::isnan(row[c]))
        std::snprintf(buf, sizeof buf, "nan");
      else
        std::snprintf(buf, sizeof buf, "%.9g", row[c]);
      out << (c ? "," : "") << buf;
    }
    out << '\n';
  }
}

std::string timing_description(MatrixMode mode) {
  switch (mode) {
    case MatrixMode::OneToOne:
      return "one pair at a time; the receiver times MPI_Recv of the sender's MPI_Send, and a "
             "4-byte acknowledgement separates the repeats (so a time includes its way back)";
    case MatrixMode::AllToAll:
      return "every rank posts MPI_Irecv and MPI_Isend to every other rank at once; the "
             "receiver times from posting to MPI_Waitany returning that sender's message";
    case MatrixMode::SendRecvAndRecvSend:
      return "one pair at a time; the sender times MPI_Send then MPI_Recv of the receiver's "
             "equally long reply (MPI_Recv then MPI_Send); half of that round trip";
    case MatrixMode::AsyncOneToOne:
      return "as one_to_one with MPI_Isend/MPI_Irecv and MPI_Wait; the receiver times "
             "MPI_Irecv to the end of MPI_Wait";
    case MatrixMode::NoiseBlocking:
      return "as one_to_one while randomly chosen noise ranks exchange messages all-to-all "
             "among themselves (untimed)";
    case MatrixMode::Noise:
      return "as async_one_to_one while randomly chosen noise ranks exchange messages "
             "all-to-all among themselves (untimed)";
  }
  return {};
}

nlohmann::ordered_json matrix_index(const MatrixRun& run) {
  const MatrixOptions& o = run.options;
  nlohmann::ordered_json index;
  index["format"] = "collwrap-bench matrix";
  index["version"] = 1;
  index["mode"] = mode_name(o.mode);
  index["timing"] = timing_description(o.mode);
  index["ranks"] = run.world_size;
  index["hosts"] = run.hosts;
  index["repeats"] = o.repeats;
  if (has_noise(o.mode))
    index["noise"] = {{"ranks_per_pair", run.noise_ranks},
                      {"messages_per_partner", o.noise_messages},
                      {"message_length", o.noise_length},
                      {"seed", o.seed}};
  index["unit"] = "s";
  index["rows"] = "sender rank";
  index["columns"] = "receiver rank";
  index["statistics"] = kStatisticNames;
  index["elapsed_s"] = run.elapsed_s;
  auto& lengths = index["lengths"] = nlohmann::ordered_json::array();
  for (std::size_t length : o.lengths) {
    nlohmann::ordered_json entry = {{"bytes", length}};
    for (std::size_t s = 0; s < kStatisticCount; ++s) {
      const auto statistic = MatrixStatistic(s);
      entry["matrices"][kStatisticNames[s]] = matrix_file_name(statistic, length);
      if (!o.svg) continue;
      if (wants_global(o.normalization))
        entry["heatmaps"]["global"][kStatisticNames[s]] =
            heatmap_file_name(statistic, length, true);
      if (wants_local(o.normalization))
        entry["heatmaps"]["local"][kStatisticNames[s]] =
            heatmap_file_name(statistic, length, false);
    }
    lengths.push_back(std::move(entry));
  }
  return index;
}

bool write_matrix_run(const MatrixRun& run, const std::string& directory) {
  const MatrixOptions& o = run.options;
  if (run.matrices.size() != o.lengths.size())
    throw std::logic_error("write_matrix_run: one set of matrices per message length expected");
  const auto scales = global_scales(run.matrices);
  for (std::size_t i = 0; i < o.lengths.size(); ++i)
    for (std::size_t s = 0; s < kStatisticCount; ++s) {
      const auto statistic = MatrixStatistic(s);
      const HeatmapMatrix& seconds = run.matrices[i][s];
      if (!write_file(directory + "/" + matrix_file_name(statistic, o.lengths[i]),
                      [&](std::ostream& out) { write_delay_matrix(seconds, out); }))
        return false;
      if (!o.svg) continue;
      const HeatmapMatrix us = in_microseconds(seconds);
      for (bool global : {true, false}) {
        if (global ? !wants_global(o.normalization) : !wants_local(o.normalization)) continue;
        const HeatmapOptions options = delay_heatmap_options(
            o.mode, statistic, o.lengths[i], global ? std::optional(scales[s]) : std::nullopt);
        if (!write_file(directory + "/" + heatmap_file_name(statistic, o.lengths[i], global),
                        [&](std::ostream& out) { write_heatmap_svg(us, options, out); }))
          return false;
      }
    }
  return write_file(directory + "/" + kMatrixIndexName,
                    [&](std::ostream& out) { out << matrix_index(run).dump(2) << '\n'; });
}

}  // namespace collwrap::bench
