// The dashboard's pages and assets (the files of dashboard/),
// compiled into the binary by cmake/EmbedDashboard.cmake: the server needs no
// file of the source tree at run time, and serves exactly what was built.
#pragma once

#include <optional>
#include <span>
#include <string_view>

namespace codepayload::server {

struct DashboardFile {
  std::string_view name;   // path under dashboard/, "/"-separated: "api.html", "assets/dashboard.css"
  std::string_view bytes;  // the file's content
};

// Every file, sorted by name (generated).
std::span<const DashboardFile> dashboardFiles();

// The file called `name`, when there is one.
std::optional<DashboardFile> findDashboardFile(std::string_view name);

// The Content-Type for a file name, by its extension: .html text/html;
// charset=utf-8, .css text/css; charset=utf-8, .js text/javascript;
// charset=utf-8, .svg image/svg+xml, .png image/png, .ico image/x-icon;
// nullopt for any other (such a file is not served).
std::optional<std::string_view> dashboardContentType(std::string_view name);

}  // namespace codepayload::server
