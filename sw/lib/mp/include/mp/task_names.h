/* Force-included (-include mp/task_names.h) into the mp_task library and into task code that uses
 * MCAPI (mp_task_sources() in sw/lib/mp/CMakeLists.txt): the task's calls of the plain mcapi_*
 * API bind to the task build (mcapi_task.c) while the kernel in the same image keeps the normal
 * library. The application source is unchanged. */
#ifndef MP_TASK_NAMES_H
#define MP_TASK_NAMES_H
#define mcapi_cancel                  mptask_cancel
#define mcapi_domain_id_get           mptask_domain_id_get
#define mcapi_endpoint_create         mptask_endpoint_create
#define mcapi_endpoint_delete         mptask_endpoint_delete
#define mcapi_endpoint_get            mptask_endpoint_get
#define mcapi_endpoint_get_i          mptask_endpoint_get_i
#define mcapi_finalize                mptask_finalize
#define mcapi_initialize              mptask_initialize
#define mcapi_msg_available           mptask_msg_available
#define mcapi_msg_recv                mptask_msg_recv
#define mcapi_msg_recv_i              mptask_msg_recv_i
#define mcapi_msg_send                mptask_msg_send
#define mcapi_msg_send_i              mptask_msg_send_i
#define mcapi_node_id_get             mptask_node_id_get
#define mcapi_pktchan_available       mptask_pktchan_available
#define mcapi_pktchan_connect_i       mptask_pktchan_connect_i
#define mcapi_pktchan_recv            mptask_pktchan_recv
#define mcapi_pktchan_recv_i          mptask_pktchan_recv_i
#define mcapi_pktchan_recv_open_i     mptask_pktchan_recv_open_i
#define mcapi_pktchan_release         mptask_pktchan_release
#define mcapi_pktchan_send            mptask_pktchan_send
#define mcapi_pktchan_send_i          mptask_pktchan_send_i
#define mcapi_pktchan_send_open_i     mptask_pktchan_send_open_i
#define mcapi_test                    mptask_test
#define mcapi_wait                    mptask_wait
#define mcapi_wait_any                mptask_wait_any
#define mcapix_endpoint_create        mptask_mcapix_endpoint_create
#define mcapix_endpoint_reaped        mptask_mcapix_endpoint_reaped /* the kernel's only */
#define mcapix_endpoint_set_send_mode mptask_mcapix_endpoint_set_send_mode
#define mcapix_namp_completion        mptask_mcapix_namp_completion
#define mcapix_set_data_path          mptask_mcapix_set_data_path
#define mcapix_get_data_path          mptask_mcapix_get_data_path
#define mcapix_namp_last_error        mptask_mcapix_namp_last_error
#define mcapix_stats                  mptask_mcapix_stats
/* not in tasks (the count is the adapter's, a kernel register; the zero-copy receive is not
 * offered there): a task that calls them does not link */
#define mcapix_msg_hold               mptask_mcapix_msg_hold
#define mcapix_msg_release            mptask_mcapix_msg_release
#define mcapix_refused                mptask_mcapix_refused
#define mcapix_status_name            mptask_mcapix_status_name
/* collectives (mcapi_task_cc.c) */
#define mcapix_cc_area                mptask_mcapix_cc_area
#define mcapix_cc_features            mptask_mcapix_cc_features
#define mcapix_cc_set_path            mptask_mcapix_cc_set_path
#define mcapix_cc_stats               mptask_mcapix_cc_stats
#define mcapix_gather_recv            mptask_mcapix_gather_recv
#define mcapix_gather_rx_create       mptask_mcapix_gather_rx_create
#define mcapix_gather_send            mptask_mcapix_gather_send
#define mcapix_gather_tx_create       mptask_mcapix_gather_tx_create
#define mcapix_mcast_create           mptask_mcapix_mcast_create
#define mcapix_mcast_create_chan      mptask_mcapix_mcast_create_chan
#define mcapix_mcast_destroy          mptask_mcapix_mcast_destroy
#define mcapix_mcast_member_status    mptask_mcapix_mcast_member_status
#define mcapix_mcast_send             mptask_mcapix_mcast_send
#define mcapix_reduce_recv            mptask_mcapix_reduce_recv
#define mcapix_reduce_rx_create       mptask_mcapix_reduce_rx_create
#define mcapix_reduce_send            mptask_mcapix_reduce_send
#define mcapix_reduce_tx_create       mptask_mcapix_reduce_tx_create
#define mcapix_scatter_create_chan    mptask_mcapix_scatter_create_chan
#define mcapix_scatter_send           mptask_mcapix_scatter_send
#endif
