# The install layout (D-V4) and the Debian package (cpack -G DEB).
#
#   /usr/bin/codepayload-server, codepayload-admin, codepayload-import, codepayload
#   /usr/share/codepayload/rules/      the shipped baseline, Lua linters and modules, pipeline.properties
#   /usr/share/codepayload/db/         the schema migrations (rules/, registry/)
#   /etc/codepayload/codepayload.properties   the configuration (data.dir = /var/lib/codepayload)
#   /var/lib/codepayload/              state: made by the package (owner codepayload, 0700)
#   /lib/systemd/system/codepayload.service
#   /usr/share/man/man1/*.1.gz         from each binary's --help (help2man)
#
# Only a CODEPAYLOAD_PACKAGE build installs: the binaries of a source-tree
# build look for their files in the source tree.
if(NOT CODEPAYLOAD_PACKAGE)
  return()
endif()

set(CODEPAYLOAD_BINARIES codepayload-server codepayload-admin codepayload-import codepayload)
foreach(binary IN LISTS CODEPAYLOAD_BINARIES)
  if(NOT TARGET ${binary})
    message(FATAL_ERROR "CODEPAYLOAD_PACKAGE: the target ${binary} is not configured")
  endif()
endforeach()
install(TARGETS ${CODEPAYLOAD_BINARIES} RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})

install(DIRECTORY ${PROJECT_SOURCE_DIR}/rules/ DESTINATION ${CMAKE_INSTALL_DATADIR}/codepayload/rules)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/db/rules ${PROJECT_SOURCE_DIR}/db/registry
        DESTINATION ${CMAKE_INSTALL_DATADIR}/codepayload/db FILES_MATCHING PATTERN "*.sql")

# The configuration: the repository's file, with the state folder of the install layout.
set(CODEPAYLOAD_STATE_DIR "${CMAKE_INSTALL_FULL_LOCALSTATEDIR}/lib/codepayload")
file(READ ${PROJECT_SOURCE_DIR}/config/codepayload.properties CODEPAYLOAD_PROPERTIES)
string(FIND "${CODEPAYLOAD_PROPERTIES}" "\ndata.dir = ./data\n" CODEPAYLOAD_DATA_DIR_LINE)
if(CODEPAYLOAD_DATA_DIR_LINE EQUAL -1)
  message(FATAL_ERROR "config/codepayload.properties has no line 'data.dir = ./data' to set for the package")
endif()
string(REPLACE "\ndata.dir = ./data\n" "\ndata.dir = ${CODEPAYLOAD_STATE_DIR}\n" CODEPAYLOAD_PROPERTIES
               "${CODEPAYLOAD_PROPERTIES}")
file(WRITE ${PROJECT_BINARY_DIR}/package/codepayload.properties "${CODEPAYLOAD_PROPERTIES}")
install(FILES ${PROJECT_BINARY_DIR}/package/codepayload.properties
        DESTINATION ${CMAKE_INSTALL_FULL_SYSCONFDIR}/codepayload PERMISSIONS OWNER_READ OWNER_WRITE GROUP_READ WORLD_READ)

install(FILES ${PROJECT_SOURCE_DIR}/deploy/codepayload.service DESTINATION /lib/systemd/system)

# Manual pages from each binary's --help and --version.
find_program(CODEPAYLOAD_HELP2MAN help2man REQUIRED)
find_program(CODEPAYLOAD_GZIP gzip REQUIRED)
set(CODEPAYLOAD_MAN_SUMMARY_codepayload-server "the GS1 code-payload HTTPS service")
set(CODEPAYLOAD_MAN_SUMMARY_codepayload-admin "manage the organizations and API clients of the GS1 code-payload service")
set(CODEPAYLOAD_MAN_SUMMARY_codepayload-import "import a GS1 Barcode Syntax Dictionary release into the rules database")
set(CODEPAYLOAD_MAN_SUMMARY_codepayload "generate GS1 code payloads from a batch file, offline")
set(CODEPAYLOAD_MAN_PAGES "")
foreach(binary IN LISTS CODEPAYLOAD_BINARIES)
  set(page ${PROJECT_BINARY_DIR}/package/man/${binary}.1)
  add_custom_command(
    OUTPUT ${page}.gz
    COMMAND ${CMAKE_COMMAND} -E make_directory ${PROJECT_BINARY_DIR}/package/man
    COMMAND ${CMAKE_COMMAND} -E env CODEPAYLOAD_CONFIG_DIR=${PROJECT_SOURCE_DIR}/config
            ${CODEPAYLOAD_HELP2MAN} --no-info --no-discard-stderr --section=1
            "--name=${CODEPAYLOAD_MAN_SUMMARY_${binary}}" --output=${page} $<TARGET_FILE:${binary}>
    COMMAND ${CODEPAYLOAD_GZIP} -9nf ${page}
    DEPENDS ${binary}
    COMMENT "Manual page of ${binary}"
    VERBATIM)
  list(APPEND CODEPAYLOAD_MAN_PAGES ${page}.gz)
endforeach()
add_custom_target(codepayload_man_pages ALL DEPENDS ${CODEPAYLOAD_MAN_PAGES})
install(FILES ${CODEPAYLOAD_MAN_PAGES} DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)

install(FILES ${PROJECT_SOURCE_DIR}/deploy/debian/copyright DESTINATION ${CMAKE_INSTALL_DOCDIR})
file(READ ${PROJECT_SOURCE_DIR}/deploy/debian/changelog CODEPAYLOAD_CHANGELOG)
file(WRITE ${PROJECT_BINARY_DIR}/package/changelog "${CODEPAYLOAD_CHANGELOG}")
add_custom_command(
  OUTPUT ${PROJECT_BINARY_DIR}/package/changelog.gz
  COMMAND ${CODEPAYLOAD_GZIP} -9nkf ${PROJECT_BINARY_DIR}/package/changelog
  DEPENDS ${PROJECT_SOURCE_DIR}/deploy/debian/changelog
  VERBATIM)
add_custom_target(codepayload_changelog ALL DEPENDS ${PROJECT_BINARY_DIR}/package/changelog.gz)
install(FILES ${PROJECT_BINARY_DIR}/package/changelog.gz DESTINATION ${CMAKE_INSTALL_DOCDIR})

# The Debian package.
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME codepayload)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_CONTACT "codepayload maintainers <maintainers@codepayload.invalid>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "GS1 Digital Link URIs and element strings for 2D barcodes")
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION
    "An on-premises HTTPS service that turns batches of GS1 code definitions into
the text to encode in 2D barcodes (GS1 Digital Link URIs or GS1 element
strings) and their human readable text, validated against the GS1 Barcode
Syntax Dictionary, protected by OAuth 2.0 client credentials.")
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION net)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_DEPENDS "passwd")
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)
set(CPACK_DEBIAN_PACKAGE_CONTROL_EXTRA
    ${PROJECT_SOURCE_DIR}/deploy/debian/conffiles ${PROJECT_SOURCE_DIR}/deploy/debian/postinst
    ${PROJECT_SOURCE_DIR}/deploy/debian/prerm ${PROJECT_SOURCE_DIR}/deploy/debian/postrm)
set(CPACK_STRIP_FILES ON)
include(CPack)
