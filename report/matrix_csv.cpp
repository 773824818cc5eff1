#include "matrix_csv.h"

#include <iomanip>
#include <ios>

namespace collwrap {

void write_matrix_csv(const AnalysisResult& result, std::ostream& out) {
  out << "sender,receiver,messages,bytes,transfer_min_s,transfer_median_s,transfer_mean_s,"
         "transfer_max_s,transfer_stddev_s\n";
  // Nanosecond resolution needs 9 significant digits after a few seconds: keep 12.
  const auto old_precision = out.precision(12);
  for (const CommPair& c : result.communication)
    out << c.sender << ',' << c.receiver << ',' << c.messages << ',' << c.bytes << ','
        << c.transfer_min_s << ',' << c.transfer_median_s << ',' << c.transfer_mean_s << ','
        << c.transfer_max_s << ',' << c.transfer_stddev_s << '\n';
  out.precision(old_precision);
}

}  // namespace collwrap
