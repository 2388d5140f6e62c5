# Writes nvmodel.pc at install time, when the prefix is known (cmake --install
# --prefix may differ from CMAKE_INSTALL_PREFIX at configure time). Called
# from an install(CODE) rule that sets NVM_PC_IN, NVM_PC_OUT, NVM_PC_VERSION,
# NVM_PC_LIBDIR, NVM_PC_INCLUDEDIR (GNUInstallDirs, relative or absolute) and
# NVM_PC_LIBS_PRIVATE.
set(NVM_PC_PREFIX "${CMAKE_INSTALL_PREFIX}")
foreach(v LIBDIR INCLUDEDIR)
  if(NOT IS_ABSOLUTE "${NVM_PC_${v}}")
    set(NVM_PC_${v} "\${prefix}/${NVM_PC_${v}}")
  endif()
endforeach()
configure_file("${NVM_PC_IN}" "${NVM_PC_OUT}" @ONLY)
