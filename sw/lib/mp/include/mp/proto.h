/* Protocol messages of the software message-passing baseline (thesis 3.2.1/3.2.2), carried as raw
 * NoC packets through the network adapter's NoC buffers. The header flit's 4-bit type field is the
 * message type; the payload words follow. Requests travel through NoC buffer 0 (control request
 * channel), responses through NoC buffer 1 (control response channel): a response never triggers a
 * further message, so the progress engine can always drain the response channel and the
 * request/response dependency cannot deadlock. Addresses are tile-local SRAM addresses of the
 * tile that owns the object; tile ids are y * width + x.
 *
 *  type                 buffer  payload words
 *  1  LOOKUP_REQ          0     req_id, port                       endpoint lookup (Fig. 3.4a)
 *     (req_id: pending slot | sequence << 8; an answer to a request that gave up is dropped)
 *  2  LOOKUP_RESP         1     req_id, status (0 found, 1 none), endpoint address, its identity,
 *                               receive geometry capacity_log2 | max_msg_log2 << 8
 *  3  ALLOC_REQ           0     req_id, endpoint address, size     remote buffer allocation
 *  4  ALLOC_ACK           1     req_id, index (32-bit counter), slot data address
 *  5  ALLOC_NACK          1     req_id, reason (1 buffer full: retry; 2 no such endpoint;
 *                               3 larger than a slot; 4 endpoint belongs to a channel)
 *  6  DATA                0     destination address, payload words (buffer-based data path only)
 *  7  COMPLETE            0     endpoint address, index, size in bytes (commits the slot)
 *  8  CONNECT_REQ         0     req_id, receive endpoint address, send endpoint address, the
 *                               receive endpoint's identity (another one there: ENDP_INVALID),
 *                               1 if made for a task (taken only where the owner asked to open the
 *                               receiving side, else CHAN_NOTOPEN)
 *  9  CONNECT_ACK         1     req_id, status (0 ok, else MCAPI error), credits,
 *                               data block address, (max_msg_log2 << 8) | capacity_log2, wr_idx
 * 10  CREDIT              1     send endpoint address, credits returned
 *     CREDIT (revoke)     1     send endpoint address, MP_CREDIT_REVOKE, receive endpoint address:
 *                               the receive endpoint of the channel was deleted
 *     CREDIT (stopped)    0     receive endpoint address, MP_CREDIT_REVOKE: the sender of the
 *                               revoked channel has no transfer under way and will send no more;
 *                               also sent when the send endpoint is deleted (its kernel buries a
 *                               killed task's): the channel is closed, the receiver's packets
 *                               end with MCAPI_ERR_CHAN_INVALID once the buffer is empty
 */
#ifndef MP_PROTO_H
#define MP_PROTO_H

#define MP_MSG_LOOKUP_REQ  1u
#define MP_MSG_LOOKUP_RESP 2u
#define MP_MSG_ALLOC_REQ   3u
#define MP_MSG_ALLOC_ACK   4u
#define MP_MSG_ALLOC_NACK  5u
#define MP_MSG_DATA        6u
#define MP_MSG_COMPLETE    7u
#define MP_MSG_CONNECT_REQ 8u
#define MP_MSG_CONNECT_ACK 9u
#define MP_MSG_CREDIT      10u

/* The longest message is CONNECT_ACK: the header and six words. A NoC whose packets are shorter
 * (noc.max_packet_flits < 7) cannot carry the protocol: initialisation refuses it. */
#define MP_MAX_CONTROL_FLITS 7u

#define MP_CREDIT_REVOKE 0x80000000u /* credits word of a revoke / stopped CREDIT */

#define MP_NACK_FULL      1u
#define MP_NACK_BAD_EP    2u
#define MP_NACK_TOO_LARGE 3u
#define MP_NACK_CHANNEL   4u

#define MP_NOCBUF_REQ  0u
#define MP_NOCBUF_RESP 1u

#endif
