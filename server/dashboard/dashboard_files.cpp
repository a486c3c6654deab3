#include "server/dashboard/dashboard_files.h"

#include <algorithm>
#include <array>
#include <utility>

namespace codepayload::server {

std::optional<DashboardFile> findDashboardFile(std::string_view name) {
  const std::span<const DashboardFile> files = dashboardFiles();
  const auto found =
      std::lower_bound(files.begin(), files.end(), name,
                       [](const DashboardFile& file, std::string_view wanted) { return file.name < wanted; });
  if (found == files.end() || found->name != name) return std::nullopt;
  return *found;
}

std::optional<std::string_view> dashboardContentType(std::string_view name) {
  static constexpr std::array<std::pair<std::string_view, std::string_view>, 6> kTypes{{
      {".html", "text/html; charset=utf-8"},
      {".css", "text/css; charset=utf-8"},
      {".js", "text/javascript; charset=utf-8"},
      {".svg", "image/svg+xml"},
      {".png", "image/png"},
      {".ico", "image/x-icon"},
  }};
  for (const auto& [extension, type] : kTypes) {
    if (name.size() > extension.size() && name.ends_with(extension)) return type;
  }
  return std::nullopt;
}

}  // namespace codepayload::server
