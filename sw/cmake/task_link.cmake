# cmake -P task_link.cmake: a firmware's task code and the task back end of the MCAPI library
# (mp_task) partially linked into one object whose library symbols are local (docs/kernel.md
# "MCAPI in tasks"). The task's mcapi_* calls are bound here, to mp_task; the kernel's, in the
# firmware's final link, to its own library. No name is renamed, no source changed.
#   CC, FLAGS (the C flags: arch, ABI), NM, OBJCOPY, LIB (libmp_task.a), OBJS (the task's
#   objects, ;-separated), OUT
foreach(v CC NM OBJCOPY LIB OBJS OUT)
  if(NOT DEFINED ${v})
    message(FATAL_ERROR "task_link.cmake: ${v} is not set")
  endif()
endforeach()
separate_arguments(all_flags UNIX_COMMAND "${FLAGS}")
set(flags "") # the target's arch and ABI; not the specs, whose linker script is the final link's
foreach(f IN LISTS all_flags)
  if(f MATCHES "^-m")
    list(APPEND flags ${f})
  endif()
endforeach()

function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "task_link.cmake: ${ARGN}\n${out}${err}")
  endif()
  set(run_out "${out}" PARENT_SCOPE)
endfunction()

# -r: members of the archive are taken only where the task's objects need them
run(${CC} ${flags} -nostdlib -r -o ${OUT}.part ${OBJS} ${LIB})

# every global the library defines becomes local to this object
run(${NM} -g --defined-only ${LIB})
string(REGEX MATCHALL "[0-9a-fA-F]+ [A-Za-z] [^\n]+" defs "${run_out}")
set(names "")
foreach(d IN LISTS defs)
  string(REGEX REPLACE "^[0-9a-fA-F]+ [A-Za-z] " "" n "${d}")
  string(APPEND names "${n}\n")
endforeach()
file(WRITE ${OUT}.local "${names}")
run(${OBJCOPY} --localize-symbols=${OUT}.local ${OUT}.part ${OUT})

# What stays undefined binds in the final link, to the kernel's side: a message-passing name there
# would be the kernel's library answering a task's call (mp_task is incomplete).
run(${NM} -u ${OUT})
string(REGEX MATCHALL "(mcapi|mcapix|mptask|mp)_[A-Za-z0-9_]+" leaks "${run_out}")
if(leaks)
  list(REMOVE_DUPLICATES leaks)
  message(FATAL_ERROR "task_link.cmake: ${OUT}: the task side needs ${leaks}, which mp_task does not define")
endif()
file(REMOVE ${OUT}.part)
