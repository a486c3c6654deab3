# Checks that project includes point one way (run by the build before any
# project target compiles; see codepayload_apply_warnings). Each folder may
# include only its own headers and those of the layers below it:
#
#   common < engine < plugins < db < auth < accounts < app < server, tools
#
# and server/'s rooms point one way among themselves (below).
#
# The engine owns the linter and rule-module interfaces and includes nothing
# above it; plugins/ implement them; the server and the command-line tools sit
# on top and never include each other. accounts/ (people's accounts: passwords,
# TOTP, sessions, audit) sits on auth/ and under app/. tests/ and bench/ may
# include anything.
#
#   cmake -DSOURCE_DIR=<repo> -DSTAMP=<file> -P cmake/CheckLayers.cmake
cmake_minimum_required(VERSION 3.25)

set(allowed_common  common)
set(allowed_engine  common engine)
set(allowed_plugins common engine plugins)
set(allowed_db      common engine db)
set(allowed_auth    common engine db auth)
set(allowed_accounts common engine db auth accounts)
set(allowed_app     common engine db auth accounts app)
set(allowed_server  common engine plugins db auth accounts app server)
set(allowed_tools   common engine plugins db auth accounts app tools)
set(project_roots   common engine plugins db auth accounts app server tools tests bench)

set(violations "")
foreach(layer common engine plugins db auth accounts app server tools)
  file(GLOB_RECURSE sources "${SOURCE_DIR}/${layer}/*.h" "${SOURCE_DIR}/${layer}/*.cpp")
  foreach(source IN LISTS sources)
    file(STRINGS "${source}" includes REGEX "^[ \t]*#[ \t]*include[ \t]*\"[^\"/]+/")
    foreach(line IN LISTS includes)
      string(REGEX REPLACE "^[ \t]*#[ \t]*include[ \t]*\"([^\"/]+)/.*$" "\\1" root "${line}")
      if(NOT root IN_LIST project_roots)
        continue()
      endif()
      if(NOT root IN_LIST allowed_${layer})
        file(RELATIVE_PATH relative "${SOURCE_DIR}" "${source}")
        string(STRIP "${line}" line)
        list(APPEND violations "${relative}: ${line} (${layer}/ may include only ${allowed_${layer}})")
      endif()
    endforeach()
  endforeach()
endforeach()

# Inside server/, the rooms point one way too:
#
#   tls < http < connections < config < observability < handlers < symbols < dashboard < (server/ itself)
#
# A room may include its own headers and those of the rooms before it; the
# process shell at server/ itself may include every room.
set(server_rooms tls http connections config observability handlers symbols dashboard)
list(JOIN server_rooms " < " server_rooms_text)
foreach(room IN LISTS server_rooms)
  file(GLOB_RECURSE sources "${SOURCE_DIR}/server/${room}/*.h" "${SOURCE_DIR}/server/${room}/*.cpp")
  list(FIND server_rooms ${room} room_rank)
  foreach(source IN LISTS sources)
    file(STRINGS "${source}" includes REGEX "^[ \t]*#[ \t]*include[ \t]*\"server/")
    foreach(line IN LISTS includes)
      string(REGEX REPLACE "^[ \t]*#[ \t]*include[ \t]*\"server/([^\"]*)\".*$" "\\1" included "${line}")
      string(REGEX MATCH "^[^/]+/" included_room "${included}")
      string(REPLACE "/" "" included_room "${included_room}")
      list(FIND server_rooms "${included_room}" included_rank)
      if(included_rank EQUAL -1 OR included_rank GREATER room_rank)
        file(RELATIVE_PATH relative "${SOURCE_DIR}" "${source}")
        string(STRIP "${line}" line)
        list(APPEND violations "${relative}: ${line} (server/${room}/ may include only itself and the rooms before it in ${server_rooms_text})")
      endif()
    endforeach()
  endforeach()
endforeach()

if(violations)
  list(JOIN violations "\n  " text)
  message(FATAL_ERROR "includes against the layering (cmake/CheckLayers.cmake):\n  ${text}")
endif()
file(TOUCH "${STAMP}")
